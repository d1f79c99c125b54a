//! A remote vector index in RAM for tests: exact cosine over the points it was given, the calls it got,
//! and an outage switch. Clones share their state. The real provider (Chroma) is tested against a real
//! server in tests/node/.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;

use crate::core::error::{MemoryError, Result};
use crate::core::vector_store::remote::{RemoteVectors, VectorPoint, VectorQuery};

#[derive(Default)]
struct Held {
    points: RefCell<BTreeMap<String, VectorPoint>>,
    calls: RefCell<Vec<&'static str>>,
    down: Cell<bool>,
}

/// Points by id, searched by exact cosine (scope checked, filters left to the engine).
#[derive(Clone, Default)]
pub struct MapRemote(Rc<Held>);

impl MapRemote {
    /// The points held now, by id.
    pub fn points(&self) -> BTreeMap<String, VectorPoint> {
        self.0.points.borrow().clone()
    }

    /// The calls made so far (`"upsert"`, `"query"`, …), oldest first.
    pub fn calls(&self) -> Vec<&'static str> {
        self.0.calls.borrow().clone()
    }

    /// Makes every call fail with `VECTOR_STORE_UNAVAILABLE` (`true`) or succeed again.
    pub fn set_down(&self, down: bool) {
        self.0.down.set(down);
    }

    fn call(&self, name: &'static str) -> Result<()> {
        self.0.calls.borrow_mut().push(name);
        match self.0.down.get() {
            true => Err(MemoryError::VectorStoreUnavailable("the test index is down".into())),
            false => Ok(()),
        }
    }
}

impl RemoteVectors for MapRemote {
    async fn upsert(&self, points: &[VectorPoint]) -> Result<()> {
        self.call("upsert")?;
        let mut held = self.0.points.borrow_mut();
        points.iter().for_each(|point| drop(held.insert(point.id.clone(), point.clone())));
        Ok(())
    }

    async fn delete(&self, ids: &[String]) -> Result<()> {
        self.call("delete")?;
        ids.iter().for_each(|id| drop(self.0.points.borrow_mut().remove(id)));
        Ok(())
    }

    async fn query(&self, query: VectorQuery<'_>) -> Result<Vec<(String, f32)>> {
        self.call("query")?;
        let cosine = |v: &[f32]| v.iter().zip(query.vector).map(|(a, b)| a * b).sum::<f32>();
        let held = self.0.points.borrow();
        let mut hits: Vec<(String, f32)> = held
            .values()
            .filter(|point| query.scope.contains(&point.scope))
            .map(|point| (point.id.clone(), cosine(&point.vector)))
            .collect();
        hits.sort_by(|a, b| b.1.total_cmp(&a.1));
        hits.truncate(query.limit);
        Ok(hits)
    }

    async fn clear(&self) -> Result<()> {
        self.call("clear")?;
        self.0.points.borrow_mut().clear();
        Ok(())
    }

    async fn missing(&self, ids: &[String]) -> Result<Vec<String>> {
        self.call("missing")?;
        Ok(ids.iter().filter(|id| !self.0.points.borrow().contains_key(*id)).cloned().collect())
    }

    async fn vectors(&self, ids: &[String]) -> Result<Vec<(String, Vec<f32>)>> {
        self.call("vectors")?;
        let held = self.0.points.borrow();
        Ok(ids.iter().filter_map(|id| Some((id.clone(), held.get(id)?.vector.clone()))).collect())
    }
}
