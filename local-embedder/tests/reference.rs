//! The embedder against the independent numpy/tokenizers reference on the same weights.

mod common;
use common::{cosine, embedder, reference};
use memwasm_local_embedder::MAX_TOKENS;

#[test]
fn token_ids_match_the_reference_tokenizer() {
    let embedder = embedder();
    let rows = reference();
    assert!(rows.len() >= 100, "{} reference sentences", rows.len());
    for row in &rows {
        assert_eq!(embedder.tokenizer().ids(&row.text).unwrap(), row.ids, "ids of {:?}", row.text);
    }
    assert!(rows.iter().any(|r| r.ids.len() == MAX_TOKENS), "some sentence reaches the window");
}

#[test]
fn batched_embeddings_match_the_reference() {
    let embedder = embedder();
    let rows = reference();
    let texts: Vec<&str> = rows.iter().map(|r| r.text.as_str()).collect();
    let vectors = embedder.embed(&texts).unwrap();
    assert_eq!(vectors.len(), rows.len());
    let worst = rows
        .iter()
        .zip(&vectors)
        .map(|(r, v)| (cosine(&r.embedding, v), &r.text))
        .fold((f32::MAX, &rows[0].text), |a, b| if b.0 < a.0 { b } else { a });
    println!("worst cosine vs reference: {:.6} ({:?})", worst.0, worst.1.chars().take(40).collect::<String>());
    assert!(worst.0 >= 0.999, "cosine {} for {:?}", worst.0, worst.1);
    for v in &vectors {
        assert_eq!(v.len(), 384);
        assert!((v.iter().map(|x| x * x).sum::<f32>().sqrt() - 1.0).abs() < 1e-4, "unit length");
    }
}

#[test]
fn a_text_embeds_the_same_alone_and_padded_in_a_batch() {
    let embedder = embedder();
    let texts = ["User likes Python", "a much longer sentence about programming languages and compilers", ""];
    let batched = embedder.embed(&texts).unwrap();
    for (text, together) in texts.iter().zip(&batched) {
        let alone = &embedder.embed(&[text]).unwrap()[0];
        assert!(cosine(alone, together) > 0.99999, "{text:?}");
    }
}

#[test]
fn texts_grouped_by_length_across_passes_come_back_in_their_order() {
    let embedder = embedder();
    let texts: Vec<String> =
        (0..70).map(|i| format!("turn {i}: {}", "we planted tomatoes ".repeat((i * 7) % 11))).collect();
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let batched = embedder.embed(&texts).unwrap();
    assert_eq!(batched.len(), texts.len());
    for i in [0, 1, 10, 63, 64, 69] {
        let alone = &embedder.embed(&[texts[i]]).unwrap()[0];
        assert!(cosine(alone, &batched[i]) > 0.99999, "{:?}", texts[i]);
    }
}

#[test]
fn semantic_search_finds_what_keywords_cannot() {
    let embedder = embedder();
    let memories = ["User likes Python", "User lives in Berlin", "User is allergic to peanuts"];
    let vectors = embedder.embed(&memories).unwrap();
    let query = &embedder.embed(&["programming languages"]).unwrap()[0];
    let scores: Vec<f32> = vectors.iter().map(|v| cosine(query, v)).collect();
    let best = scores.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).unwrap().0;
    assert_eq!(memories[best], "User likes Python", "scores {scores:?}");
}

#[test]
fn f16_weights_stay_within_cosine_0_99_of_the_f32_reference() {
    let embedder =
        memwasm_local_embedder::Embedder::new(common::read("model.f16.safetensors"), &common::read("tokenizer.json"))
            .expect("the f16 weights load");
    let rows = reference();
    let texts: Vec<&str> = rows.iter().map(|r| r.text.as_str()).collect();
    let vectors = embedder.embed(&texts).unwrap();
    let worst = rows.iter().zip(&vectors).map(|(r, v)| cosine(&r.embedding, v)).fold(f32::MAX, f32::min);
    println!("f16 weights: worst cosine vs f32 reference {worst:.6}");
    assert!(worst >= 0.99, "cosine {worst}");
}
