use super::*;

/// The turns of a conversation of Melanie, Caroline and Dr. Ada Lane that hold `word`.
fn speakers(word: &str) -> Vec<Holder<'static>> {
    holding(
        &["Melanie: I painted a lake", "Caroline: Melanie, what did you paint?", "Dr. Ada Lane: Caroline rests"],
        word,
    )
}

/// Those of `turns` that hold `word` (any case), with their speakers.
fn holding<'t>(turns: &[&'t str], word: &str) -> Vec<Holder<'t>> {
    let holds = |turn: &str| words(turn).iter().any(|(w, _)| w.eq_ignore_ascii_case(word));
    let holder = |text: &'t str| Some(Holder { speaker: speaker_of(text)?, text });
    turns.iter().filter(|turn| holds(turn)).filter_map(|text| holder(text)).collect()
}

#[test]
fn a_turns_speaker_is_the_capitalised_name_it_starts_with() {
    assert_eq!(speaker_of("Melanie: I painted a lake"), Some("Melanie"));
    assert_eq!(speaker_of("Dr. Ada Lane: hello"), Some("Dr. Ada Lane"));
    assert_eq!(speaker_of("Zoë: hej"), Some("Zoë"));
    for text in [
        "melanie: lower case",
        "I said: nothing",
        "Melanie said no",
        "Note to self: buy milk",
        "Ana Maria de la Cruz: hi",
    ] {
        assert_eq!(speaker_of(text), None, "{text}");
    }
    assert_eq!(speaker_of(&format!("{}: long", "A".repeat(60))), None);
    assert_eq!(speaker_of(""), None);
    // A character of several bytes where the name's longest length ends.
    assert_eq!(speaker_of(&format!("Ana: {}", "é".repeat(40))), Some("Ana"));
    assert_eq!(speaker_of(&format!("{}: x", "Ana".repeat(13))), Some("Ana".repeat(13).as_str()));
    assert_eq!(speaker_of(&format!("{}: x", "Ana".repeat(14))), None);
}

#[test]
fn a_query_that_names_one_speaker_is_read_without_the_name() {
    let named = named_speaker("What did Melanie paint?", speakers).unwrap();
    assert_eq!(named, NamedSpeaker { name: "Melanie".into(), query: "What did paint?".into() });
    // The possessive goes with the name, in either apostrophe; every mention goes.
    assert_eq!(named_speaker("What are Melanie's kids like?", speakers).unwrap().query, "What are kids like?");
    assert_eq!(
        named_speaker("Did Melanie\u{2019}s lake please Melanie?", speakers).unwrap().query,
        "Did lake please ?"
    );
    // A name of several words goes whole.
    let named = named_speaker("What does Dr. Ada Lane say?", speakers).unwrap();
    assert_eq!((named.name.as_str(), named.query.as_str()), ("Dr. Ada Lane", "What does say?"));
    // Nothing left but the name: the query stays as it is.
    assert_eq!(named_speaker("Melanie", speakers).unwrap().query, "Melanie");
}

#[test]
fn of_two_speakers_the_one_not_named_as_an_object_is_asked_about() {
    let named = |query: &str| named_speaker(query, speakers).map(|n| (n.name, n.query));
    let asked = |name: &str, query: &str| Some((name.to_owned(), query.to_owned()));
    assert_eq!(named("What did Caroline say to Melanie?"), asked("Caroline", "What did say to Melanie?"));
    assert_eq!(
        named("What does Melanie think about Caroline's decision?"),
        asked("Melanie", "What does think about Caroline's decision?")
    );
    assert_eq!(named("What did Melanie do for Dr. Ada Lane?"), asked("Melanie", "What did do for Dr. Ada Lane?"));
    // Both as subjects, or both as objects: neither is the one asked about.
    assert_eq!(named("How do Melanie and Caroline both paint?"), None);
    assert_eq!(named("What did Melanie's kids give to Caroline?"), None);
}

#[test]
fn a_query_naming_no_speaker_or_two_is_left_alone() {
    assert_eq!(named_speaker("What did Caroline tell Melanie?", speakers), None, "two speakers");
    assert_eq!(named_speaker("What did she paint?", speakers), None, "no name");
    // In a query with capitals, only a capitalised word is asked about; a word that is no speaker's name
    // names none.
    assert_eq!(named_speaker("What did melanie paint?", speakers), None);
    assert_eq!(named_speaker("What did Lake paint?", speakers), None);
}

#[test]
fn a_query_typed_in_lower_case_names_a_speaker_by_any_word_but_a_stop_word() {
    let named = |query: &str| named_speaker(query, speakers).map(|n| (n.name, n.query));
    assert_eq!(named("what did melanie paint?"), Some(("Melanie".into(), "what did paint?".into())));
    assert_eq!(named("what does dr. ada lane say?"), Some(("Dr. Ada Lane".into(), "what does say?".into())));
    assert_eq!(
        named("what did caroline say to melanie?"),
        Some(("Caroline".into(), "what did say to melanie?".into()))
    );
    assert_eq!(named("what did caroline tell melanie?"), None, "two speakers");
    // A stop word is never asked about, even when a speaker has it for a name; nor is a number.
    let mut asked = Vec::new();
    let will = |word: &str| {
        asked.push(word.to_owned());
        holding(&["Will: I painted", "Will: in 2023"], word)
    };
    assert_eq!(named_speaker("what will i paint in 2023?", will), None);
    assert_eq!(asked, ["paint"]);
}

#[test]
fn a_lower_case_word_the_conversation_writes_in_lower_case_names_no_speaker() {
    let turns =
        ["Art: I took a pottery class", "Melanie: I love art", "Melanie: Art, your art is lovely", "Art: Thanks!"];
    let named = |query: &str| named_speaker(query, |word| holding(&turns, word)).map(|n| n.name);
    // "art" is written in lower case twice and capitalised once (a speaker's own name before ": " aside).
    assert_eq!(named("what art does melanie love?"), Some("Melanie".into()));
    assert_eq!(named("what did art say?"), None);
    assert_eq!(named("What did Art say?"), Some("Art".into()), "capitalised, a name is a name");
    // A name the turns write capitalised at least as often is still a name in lower case.
    let turns = ["Art: I took a pottery class", "Melanie: Art, I love art", "Art: Thanks!"];
    let named = named_speaker("what did art take?", |word| holding(&turns, word)).map(|n| n.name);
    assert_eq!(named, Some("Art".into()));
}

#[test]
fn the_named_speakers_turns_rise_towards_the_top() {
    let speakers = |id: &str| match id {
        "m" => Some("Melanie"),
        "c" => Some("Caroline"),
        _ => None,
    };
    let ranking: Ranking = vec![(0.6, "c"), (0.5, "m"), (0.4, "fact")];
    let raised = raise_speaker(ranking.clone(), "melanie", speakers);
    // m: .5 + .25 · .5 = .625 passes c; the others keep their scores.
    assert_eq!(SPEAKER_SHARE, 0.25);
    assert_eq!(raised, [(0.625, "m"), (0.6, "c"), (0.4, "fact")]);
    assert_eq!(raise_speaker(ranking.clone(), "Ada", speakers), ranking);
}

#[test]
fn a_turns_speaker_is_its_actor_else_the_name_its_text_starts_with() {
    let item = |text: &str, actor: Option<&str>| -> MemoryItem {
        let metadata = actor.map_or(serde_json::json!({}), |actor| serde_json::json!({ ACTOR_KEY: actor }));
        let item = serde_json::json!({
            "id": "m", "memory": text, "hash": "h", "createdAt": "2026-01-10T00:00:00.000Z",
            "updatedAt": "2026-01-10T00:00:00.000Z", "metadata": metadata
        });
        serde_json::from_value(item).unwrap()
    };
    let named = item("A lake at dawn", Some("Melanie"));
    assert_eq!(
        (turn_speaker(&named), turn_keyword_text(&named).as_ref()),
        (Some("Melanie"), "Melanie: A lake at dawn")
    );
    let written = item("Melanie: A lake at dawn", None);
    assert_eq!(
        (turn_speaker(&written), turn_keyword_text(&written).as_ref()),
        (Some("Melanie"), "Melanie: A lake at dawn")
    );
    // Both: the actor says who, and the text is read as it is.
    let both = item("Mel: A lake", Some("Melanie"));
    assert_eq!((turn_speaker(&both), turn_keyword_text(&both).as_ref()), (Some("Melanie"), "Mel: A lake"));
    let neither = item("a lake", None);
    assert_eq!((turn_speaker(&neither), turn_keyword_text(&neither).as_ref()), (None, "a lake"));
}
