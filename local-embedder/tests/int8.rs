//! int8 weights: quantised at load (`Quantization::Int8`) or read from the int8 weights file
//! (`quantize_weights`), their vectors against the f32 ones, and corrupt or mismatched int8 files.

mod common;
use common::{cosine, read};
use memwasm_local_embedder::{quantize_weights, Embedder, Quantization};
use safetensors::{Dtype, SafeTensors};

fn load(weights: Vec<u8>, quantization: Quantization) -> memwasm_local_embedder::Result<Embedder> {
    Embedder::load(weights, &read("tokenizer.json"), None, quantization)
}

fn sentences() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/local-embedder/sentences.json");
    serde_json::from_slice(&std::fs::read(path).expect("sentences.json")).expect("a list of strings")
}

/// The lowest cosine between `embedder`'s vectors and the f32 model's, over every test sentence.
fn worst_cosine_to_f32(embedder: &Embedder) -> f32 {
    let sentences = sentences();
    let texts: Vec<&str> = sentences.iter().map(String::as_str).collect();
    let f32_vectors = load(read("model.safetensors"), Quantization::None).unwrap().embed(&texts).unwrap();
    let vectors = embedder.embed(&texts).unwrap();
    assert_eq!(vectors.len(), texts.len());
    f32_vectors.iter().zip(&vectors).map(|(a, b)| cosine(a, b)).fold(f32::MAX, f32::min)
}

#[test]
fn int8_at_load_stays_within_cosine_0_99_of_f32_on_every_sentence() {
    let embedder = load(read("model.safetensors"), Quantization::Int8).expect("f32 weights quantise at load");
    assert_eq!(embedder.quantization(), Quantization::Int8);
    let worst = worst_cosine_to_f32(&embedder);
    println!("int8 at load: worst cosine vs f32 {worst:.6}");
    assert!(worst >= 0.99, "cosine {worst}");
}

#[test]
fn f16_weights_quantise_at_load_too() {
    let embedder = load(read("model.f16.safetensors"), Quantization::Int8).expect("f16 weights quantise at load");
    let worst = worst_cosine_to_f32(&embedder);
    println!("f16 → int8 at load: worst cosine vs f32 {worst:.6}");
    assert!(worst >= 0.99, "cosine {worst}");
}

#[test]
fn the_int8_file_is_a_quarter_of_the_bytes_and_embeds_as_quantising_at_load() {
    let f32_bytes = read("model.safetensors");
    let file = quantize_weights(&f32_bytes).unwrap();
    let share = file.len() as f64 / f32_bytes.len() as f64;
    println!("int8 file: {} bytes, {:.1}% of the f32 file", file.len(), 100.0 * share);
    assert!((0.2..0.3).contains(&share), "{share}");
    assert_eq!(quantize_weights(&file).unwrap().len(), file.len(), "an int8 file stays as it is");
    let from_file = load(file, Quantization::None).expect("the int8 file loads");
    assert_eq!(from_file.quantization(), Quantization::Int8, "an int8 file runs int8 whatever was asked");
    let at_load = load(f32_bytes, Quantization::Int8).unwrap();
    let texts = ["User likes Python", "The meeting moved to Tuesday at 3pm.", ""];
    assert_eq!(from_file.embed(&texts).unwrap(), at_load.embed(&texts).unwrap());
}

/// The int8 file with `edit` applied to each tensor (name, dtype, shape, bytes); `None` drops the tensor.
fn edited(edit: impl Fn(&str, Dtype, Vec<usize>, Vec<u8>) -> Option<(Dtype, Vec<usize>, Vec<u8>)>) -> Vec<u8> {
    let file = quantize_weights(&read("model.safetensors")).unwrap();
    let (mut header, mut data) = (serde_json::Map::new(), Vec::new());
    for (name, view) in SafeTensors::deserialize(&file).unwrap().tensors() {
        let Some((dtype, shape, bytes)) = edit(&name, view.dtype(), view.shape().to_vec(), view.data().to_vec()) else {
            continue;
        };
        let offsets = [data.len(), data.len() + bytes.len()];
        header
            .insert(name, serde_json::json!({"dtype": format!("{dtype:?}"), "shape": shape, "data_offsets": offsets}));
        data.extend(bytes);
    }
    let header = serde_json::to_vec(&header).unwrap();
    let mut out = (header.len() as u64).to_le_bytes().to_vec();
    out.extend(header);
    out.extend(data);
    out
}

const QUERY: &str = "encoder.layer.0.attention.self.query.weight";

#[test]
fn corrupt_or_mismatched_int8_files_are_embedder_load() {
    let file = quantize_weights(&read("model.safetensors")).unwrap();
    let scale = format!("{QUERY}_scale");
    let f32_bytes = |values: &[f32]| values.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("truncated", file[..file.len() / 2].to_vec()),
        ("header only", file[..2000].to_vec()),
        ("a scale missing", edited(|n, d, s, b| (n != scale).then_some((d, s, b)))),
        (
            "a scale too short",
            edited(|n, d, s, b| Some(if n == scale { (d, vec![383], b[4..].to_vec()) } else { (d, s, b) })),
        ),
        (
            "a NaN scale",
            edited(|n, d, s, b| Some(if n == scale { (d, s, f32_bytes(&[f32::NAN; 384])) } else { (d, s, b) })),
        ),
        (
            "a negative scale",
            edited(|n, d, s, b| Some(if n == scale { (d, s, f32_bytes(&[-1.0; 384])) } else { (d, s, b) })),
        ),
        (
            "int8 weights of the wrong shape",
            edited(|n, d, s, b| Some(if n == QUERY { (d, vec![192, 768], b) } else { (d, s, b) })),
        ),
        (
            "an int8 layer norm",
            edited(|n, d, s, b| {
                let norm = n == "encoder.layer.0.output.LayerNorm.weight";
                Some(if norm { (Dtype::I8, s, vec![1; 384]) } else { (d, s, b) })
            }),
        ),
    ];
    let unchanged = edited(|_, d, s, b| Some((d, s, b)));
    assert!(load(unchanged, Quantization::None).is_ok(), "the rewritten file loads when nothing is edited");
    for (name, bytes) in cases {
        let code = load(bytes, Quantization::None).err().map(|e| e.code());
        assert_eq!(code, Some("EMBEDDER_LOAD"), "{name}");
    }
    assert_eq!(quantize_weights(b"not safetensors").err().map(|e| e.code()), Some("EMBEDDER_LOAD"));
}

#[test]
fn quantization_names_are_none_and_int8() {
    assert_eq!(Quantization::from_name("int8"), Some(Quantization::Int8));
    assert_eq!(Quantization::from_name("none"), Some(Quantization::None));
    assert_eq!(Quantization::from_name("int4"), None);
    assert_eq!(Quantization::Int8.name(), "int8");
}
