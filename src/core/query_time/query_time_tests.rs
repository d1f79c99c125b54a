use serde_json::json;

use super::*;
use crate::core::time::iso_from_millis;

/// 2023-08-20T12:00:00Z, a Sunday.
fn reference() -> i64 {
    millis_from_iso("2023-08-20T12:00:00Z").unwrap()
}

/// The window of `query` as ISO days `(first, last)`.
fn window(query: &str) -> Option<(String, String)> {
    let span = query_window(query, reference())?;
    Some((iso_from_millis(span.start)[..10].to_owned(), iso_from_millis(span.end - 1)[..10].to_owned()))
}

fn days(first: &str, last: &str) -> Option<(String, String)> {
    Some((first.to_owned(), last.to_owned()))
}

#[test]
fn days_months_seasons_and_years_with_a_day_of_slack() {
    assert_eq!(window("What did Gina find on 1 February, 2023?"), days("2023-01-31", "2023-02-02"));
    assert_eq!(window("What did Nate watch on October 6, 2022?"), days("2022-10-05", "2022-10-07"));
    assert_eq!(window("anything on 2022-10-06?"), days("2022-10-05", "2022-10-07"));
    assert_eq!(window("Where did Joanna travel to in July 2022?"), days("2022-06-30", "2022-08-01"));
    assert_eq!(window("What state did she visit in summer 2021?"), days("2021-05-31", "2021-09-01"));
    assert_eq!(window("Which performances did John achieve in 2023?"), days("2022-12-31", "2024-01-01"));
    assert_eq!(window("the 3rd of nothing, March 3rd, 2024"), days("2024-03-02", "2024-03-04"));
}

#[test]
fn a_day_widens_by_what_comes_before_it() {
    assert_eq!(window("What did John do the week before August 3, 2023?"), days("2023-07-26", "2023-08-04"));
    assert_eq!(window("the puppy she got two weeks before August 11, 2023"), days("2023-07-27", "2023-08-12"));
    assert_eq!(window("the Sunday before October 25, 2022"), days("2022-10-17", "2022-10-26"));
    assert_eq!(window("three days after 1 May 2023"), days("2023-04-30", "2023-05-05"));
}

#[test]
fn several_times_make_one_window() {
    assert_eq!(window("Where was John between August 11 and August 15 2023?"), days("2023-08-10", "2023-08-16"));
}

#[test]
fn times_without_a_year_count_from_the_reference() {
    // The latest June and 9 November not after 2023-08-20.
    assert_eq!(window("When did Melanie go camping in June?"), days("2023-05-31", "2023-07-01"));
    assert_eq!(window("What dish did Nate make on 9 November?"), days("2022-11-08", "2022-11-10"));
    assert_eq!(window("What did I buy yesterday?"), days("2023-08-18", "2023-08-20"));
    assert_eq!(window("what happened last week"), days("2023-08-05", "2023-08-21"));
    assert_eq!(window("What did Melanie paint recently?"), days("2023-07-19", "2023-08-21"));
    assert_eq!(window("the trip two weeks ago"), days("2023-07-29", "2023-08-14"));
}

#[test]
fn times_without_a_year_count_from_the_time_the_query_names_with_one() {
    // Asked years later, as an app asks with today's date: "recently" and "August 11" belong to the year the
    // question names, not to the years since.
    let later = millis_from_iso("2026-12-02T12:00:00Z").unwrap();
    let window = |query: &str| {
        let span = query_window(query, later)?;
        Some((iso_from_millis(span.start)[..10].to_owned(), iso_from_millis(span.end - 1)[..10].to_owned()))
    };
    let recently = "What new activity did Maria start recently, as mentioned on 3 June, 2023?";
    assert_eq!(window(recently), days("2023-05-03", "2023-06-04"));
    assert_eq!(window("Where was John between August 11 and August 15 2023?"), days("2023-08-10", "2023-08-16"));
    assert_eq!(
        window("What did Joanna just finish last Friday on 23 January, 2022?"),
        days("2022-01-09", "2022-01-24")
    );
    assert_eq!(window("What cake did Joanna make recently in May 2022?"), days("2022-04-30", "2022-06-01"));
    // Only from a time named after it, as English writes the year last: "since 2022 until last week" ends now.
    assert_eq!(window("What did I read since 2022 until last week?"), days("2021-12-31", "2026-12-03"));
    // A query naming no year counts from the reference, as before.
    assert_eq!(window("What did Melanie paint recently?"), days("2026-10-31", "2026-12-03"));
    assert_eq!(window("When did Melanie go camping in June?"), days("2026-05-31", "2026-07-01"));
}

#[test]
fn words_that_only_look_like_times_are_not() {
    for query in [
        "What may Caroline do next?",
        "What is Maria's favourite march?",
        "How many kids does she have? 3",
        "Did he win 2 tournaments?",
        "What did they say about the past?",
        "room 2023",
        "",
        "99999999999999999999 apples in 99999",
    ] {
        assert_eq!(window(query), None, "{query}");
    }
    // A huge number beside a month is not a day: the month alone.
    assert_eq!(window("99999999999999999999 May"), days("2023-04-30", "2023-06-01"));
}

fn item(metadata: serde_json::Value) -> MemoryItem {
    serde_json::from_value(json!({
        "id": "m", "memory": "x", "hash": "h", "createdAt": "2026-01-10T00:00:00.000Z",
        "updatedAt": "2026-01-10T00:00:00.000Z", "metadata": metadata
    }))
    .unwrap()
}

#[test]
fn a_memory_refers_to_its_event_time_then_its_date_then_its_span_then_its_creation() {
    let day = |m| iso_from_millis(event_span(&item(m)).start)[..10].to_owned();
    assert_eq!(day(json!({"eventTime": "2023-05-08T13:56:00Z", "date": "1 June 2020"})), "2023-05-08");
    assert_eq!(day(json!({"eventTime": "8 May 2023"})), "2023-05-08");
    assert_eq!(day(json!({"date": "1:56 pm on 8 May, 2023"})), "2023-05-08");
    assert_eq!(day(json!({"date": "not a date", "startTime": "2024-02-01T10:00:00Z"})), "2024-02-01");
    assert_eq!(day(json!({"date": 20230508})), "2026-01-10");
    let dated = event_span(&item(json!({"date": "May 8, 2023"})));
    assert_eq!(dated.end - dated.start, DAY, "a date is its whole day");
}

#[test]
fn memories_in_the_window_rise_keeping_their_order() {
    let window = query_window("in May 2023", reference());
    let may = Some(date_in("8 May 2023").unwrap());
    let june = Some(date_in("8 June 2023").unwrap());
    let time_of = |id: &str| match id {
        "a" | "c" => may,
        "b" => june,
        _ => None,
    };
    let ranking: Ranking = vec![(0.8, "b"), (0.6, "x"), (0.55, "a"), (0.5, "c")];
    let raised = raise_in(ranking, window, time_of, TIME_SHARE, 1.0);
    // a: .55 + .3·.45 = .685; c: .5 + .3·.5 = .65
    let ids: Vec<&str> = raised.iter().map(|(_, id)| *id).collect();
    assert_eq!(ids, ["b", "a", "c", "x"]);
    assert!((raised[1].0 - 0.685).abs() < 1e-9 && raised.iter().all(|(s, _)| *s <= 1.0));
}

#[test]
fn questions_that_ask_when() {
    for question in [
        "When did Melanie paint a sunrise?",
        "when is the trip",
        "How long ago was the move?",
        "What year did she start?",
        "what month was it",
        "In which year did he graduate?",
    ] {
        assert!(asks_when(question), "{question}");
    }
    for question in ["What did Melanie paint?", "Where was the trip, and when?", "How many cats?", "In which city?", ""]
    {
        assert!(!asks_when(question), "{question}");
    }
}

#[test]
fn memories_that_say_a_time() {
    for text in [
        "I went yesterday",
        "We moved two years ago",
        "Last week was busy",
        "see you next summer",
        "this morning I ran",
        "It opened in May",
        "back in 2019",
        "for 3 weeks",
        "every Saturday",
        "a few days later",
        "busy weekends",
        "I have been painting lately",
    ] {
        assert!(says_a_time(text), "{text}");
    }
    for text in ["I love painting", "the last one", "two cats", "room 1234", "the day is long", ""] {
        assert!(!says_a_time(text), "{text}");
    }
}

#[test]
fn raise_answers_lifts_the_memories_that_say_a_time_only_for_a_when_question() {
    let ranking: Ranking = vec![(0.8, "plain"), (0.75, "timed"), (0.5, "other")];
    let text = |id: &str| Some(if id == "timed" { "we met yesterday" } else { "we met" });
    let raised = raise_answers(ranking.clone(), "When did we meet?", text, WHEN_SHARE, 1.0);
    assert_eq!(raised.iter().map(|(_, id)| *id).collect::<Vec<_>>(), ["timed", "plain", "other"]);
    assert!((raised[0].0 - (0.75 + WHEN_SHARE * 0.25)).abs() < 1e-12);
    assert_eq!(raise_answers(ranking.clone(), "Where did we meet?", text, WHEN_SHARE, 1.0), ranking);
}
