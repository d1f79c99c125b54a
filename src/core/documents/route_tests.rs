//! Routing of hand-written chunks, rule by rule.

use super::*;
use MemoryType::{Episodic, Procedural, Semantic, Working};

#[test]
fn the_hint_wins() {
    assert_eq!(route("I prefer tea", Some(MemoryType::Foresight)), MemoryType::Foresight);
}

#[test]
fn each_rule_in_order() {
    let cases = [
        ("My favorite editor is Helix, and right now I use it daily.", Procedural),
        ("I never write tests after the code.", Procedural),
        ("Right now I am debugging the login page.", Working),
        ("In this session we refactor the parser; the tests come later.", Working),
        ("Currently the build is red.", Working),
        ("She now works at Acme.", Semantic),
        ("PostgreSQL is a relational database. It stores rows in pages.", Semantic),
        ("The service depends on Redis for caching.", Semantic),
        ("Yesterday we discussed the migration plan.", Episodic),
        ("User: where is the config?\nAssistant: in the home folder.", Episodic),
        ("Alice: the office is closed\nBob: it is", Episodic),
        ("Is the parser fast enough?", Episodic),
        ("Shipped the release and celebrated with the team.", Episodic),
        ("is", Episodic),
    ];
    for (text, kind) in cases {
        assert_eq!(route(text, None), kind, "{text}");
    }
}

#[test]
fn now_phrases_match_whole_words_only() {
    assert!(!is_about_now("Todays weather and momentary lapses, and the nowhere man"));
    assert!(is_about_now("What are you doing TODAY"));
    assert!(is_about_now("for now, use the fallback"));
}
