//! Seeded data sets, written once to `<dir>/<name>.{vectors,users,queries}` (little-endian f32 / u32) so
//! the native and the Node side read the very same bytes.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// splitmix64.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in (0, 1].
    fn uniform(&mut self) -> f64 {
        ((self.next() >> 11) + 1) as f64 / (1u64 << 53) as f64
    }
    /// Standard normal (Box–Muller).
    fn gaussian(&mut self) -> f64 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn unit(v: Vec<f64>) -> Vec<f32> {
    let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    v.iter().map(|x| (x / norm) as f32).collect()
}

fn gaussian_unit(rng: &mut Rng, dim: usize) -> Vec<f32> {
    unit((0..dim).map(|_| rng.gaussian()).collect())
}

/// `centre` plus Gaussian noise of expected norm `spread`, normalised.
fn near(rng: &mut Rng, centre: &[f32], spread: f64) -> Vec<f32> {
    let sigma = spread / (centre.len() as f64).sqrt();
    unit(centre.iter().map(|c| f64::from(*c) + sigma * rng.gaussian()).collect())
}

/// What to generate.
#[derive(Debug, Clone)]
pub struct Spec {
    /// `random` (uniform on the sphere) or `clustered` (n/100 Gaussian clusters).
    pub kind: String,
    pub n: usize,
    pub dim: usize,
    pub queries: usize,
    pub seed: u64,
}

impl Spec {
    pub fn name(&self) -> String {
        format!("{}-{}x{}-q{}-s{}", self.kind, self.n, self.dim, self.queries, self.seed)
    }
}

/// A loaded data set: row-major unit vectors, the user of each row (0 = the searched user), queries.
pub struct Data {
    pub vectors: Vec<f32>,
    pub users: Vec<u32>,
    pub queries: Vec<f32>,
}

fn paths(dir: &Path, spec: &Spec) -> [PathBuf; 3] {
    let base = spec.name();
    ["vectors", "users", "queries"].map(|part| dir.join(format!("{base}.{part}")))
}

fn write(path: &Path, bytes: &[u8]) {
    let tmp = path.with_extension("tmp");
    fs::File::create(&tmp).and_then(|mut f| f.write_all(bytes)).expect("write data");
    fs::rename(&tmp, path).expect("rename data");
}

/// Generates the data set unless its files exist, then loads it.
pub fn ensure(dir: &Path, spec: &Spec) -> Data {
    let [vectors_path, users_path, queries_path] = paths(dir, spec);
    if !(vectors_path.exists() && users_path.exists() && queries_path.exists()) {
        fs::create_dir_all(dir).expect("data dir");
        let data = generate(spec);
        write(&vectors_path, &data.vectors.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<_>>());
        write(&users_path, &data.users.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<_>>());
        write(&queries_path, &data.queries.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<_>>());
        return data;
    }
    let floats = |p: &Path| {
        fs::read(p).expect("read").chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect()
    };
    let users = fs::read(&users_path)
        .expect("read")
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    Data { vectors: floats(&vectors_path), users, queries: floats(&queries_path) }
}

/// Every 10th row belongs to another user (1), so the scope filter has something to skip.
fn generate(spec: &Spec) -> Data {
    let mut rng = Rng::new(spec.seed);
    let users = (0..spec.n).map(|i| u32::from(i % 10 == 9)).collect();
    let (vectors, queries): (Vec<f32>, Vec<f32>) = match spec.kind.as_str() {
        "clustered" => {
            let centres: Vec<Vec<f32>> =
                (0..(spec.n / 100).max(1)).map(|_| gaussian_unit(&mut rng, spec.dim)).collect();
            let member = |rng: &mut Rng| {
                let centre = &centres[rng.below(centres.len())];
                near(rng, centre, 1.0)
            };
            let vectors = (0..spec.n).flat_map(|_| member(&mut rng)).collect();
            let queries = (0..spec.queries).flat_map(|_| member(&mut rng)).collect();
            (vectors, queries)
        }
        _ => {
            let vectors = (0..spec.n).flat_map(|_| gaussian_unit(&mut rng, spec.dim)).collect();
            let queries = (0..spec.queries).flat_map(|_| gaussian_unit(&mut rng, spec.dim)).collect();
            (vectors, queries)
        }
    };
    Data { vectors, users, queries }
}
