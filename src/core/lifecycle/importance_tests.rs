use super::*;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn importance_is_the_weighted_sum_clamped() {
    assert!(close(importance(1.0, 0.0), 0.6));
    assert!(close(importance(0.5, 0.5), 0.5));
    assert!(close(importance(0.0, 1.0), 0.4));
    assert!(close(importance(1.0, 1.0), 1.0));
}

#[test]
fn novelty_is_the_cosine_distance_from_the_centroid() {
    // Existing memories along x and y: the centroid is (0.5, 0.5).
    let existing: [&[f32]; 2] = [&[1.0, 0.0], &[0.0, 1.0]];
    let center = centroid(existing).unwrap();
    assert_eq!(center, vec![0.5, 0.5]);
    // Along the centroid: distance 0. Along x: 1 − cos 45° = 1 − 0.7071…
    assert!(close(novelty(Some(&[0.6, 0.6]), Some(&center)), 0.0));
    assert!(close(novelty(Some(&[1.0, 0.0]), Some(&center)), 1.0 - std::f64::consts::FRAC_1_SQRT_2));
    // Opposite the centroid: distance 2, clamped to 1.
    assert!(close(novelty(Some(&[-1.0, -1.0]), Some(&center)), 1.0));
    // An empty scope, a memory with no vector, a zero centroid: fully novel.
    assert!(close(novelty(Some(&[1.0, 0.0]), None), 1.0));
    assert!(close(novelty(None, Some(&center)), 1.0));
    assert!(close(novelty(Some(&[1.0, 0.0]), Some(&[0.0, 0.0])), 1.0));
    assert!(centroid(std::iter::empty::<&[f32]>()).is_none());
}

#[test]
fn each_salience_signal_has_its_weight() {
    assert!(close(salience("user likes quiet mornings"), 0.0));
    assert!(close(salience("User works at Acme"), 0.3), "named entity");
    assert!(close(salience("user owns 3 bikes"), 0.2), "number");
    assert!(close(salience("user was born in march"), 0.2), "month name");
    assert!(close(salience("user prefers tea"), 0.4), "preference");
    assert!(close(salience("user writes snake_case code"), 0.1), "technical term");
    assert!(close(salience("user knows postgresql"), 0.0), "a lower-case product name is not detected");
    // Several signals add up: entity + number + preference + technical = 1.0, and never more.
    assert!(close(salience("User always deploys FastAPI 0.110 to Fly"), 1.0));
}

#[test]
fn sentence_starts_and_pronouns_are_not_entities() {
    assert!(close(salience("Tea is nice. Coffee too"), 0.0));
    assert!(close(salience("I think so"), 0.0));
    assert!(close(salience("User is tired"), 0.0));
    assert!(close(salience("The user met Maria"), 0.3));
}

#[test]
fn technical_terms_by_shape() {
    for word in ["gpt4o", "ES2022", "PostgreSQL", "node.js", "snake_case", "SQL", "std::vec", "internationalization"] {
        assert!(is_technical(word), "{word}");
    }
    for word in ["coffee", "Berlin", "I", "A", "hello-world"] {
        assert!(!is_technical(word), "{word}");
    }
}

#[test]
fn hand_computed_importance_of_a_fact() {
    // "User prefers Rust 2024": entity (Rust) 0.3 + number 0.2 + preference 0.4 = 0.9 salience;
    // novelty 1.0 in an empty scope → 0.6 + 0.36 = 0.96.
    let salience = salience("User prefers Rust 2024");
    assert!(close(salience, 0.9));
    assert!(close(importance(novelty(Some(&[1.0]), None), salience), 0.96));
}
