//! The particulars of a fact: the numbers, dates and negations a sentence embedding barely sees ("User has
//! 2 kids" and "User has 3 kids" are at cosine 0.95 with MiniLM). Two facts whose particulars differ say
//! different things, however close their vectors, so the near-duplicate check never collapses them.

/// Number words and the digits they stand for ("two kids" is "2 kids"), `word:digits` each.
const NUMBER_WORDS: &str = "zero:0 one:1 two:2 three:3 four:4 five:5 six:6 seven:7 eight:8 nine:9 ten:10 \
    eleven:11 twelve:12 thirteen:13 fourteen:14 fifteen:15 sixteen:16 seventeen:17 eighteen:18 nineteen:19 \
    twenty:20 thirty:30 forty:40 fifty:50 sixty:60 seventy:70 eighty:80 ninety:90 hundred:100 thousand:1000 \
    million:1000000 first:1 second:2 third:3 fourth:4 fifth:5 once:1 twice:2 half:0.5 dozen:12";

/// Words that name a date: months (and their short forms) and weekdays.
const DATE_WORDS: &str = "january february march april may june july august september october november december \
    jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday";

/// Words that negate what follows; a word ending in "n't" counts too.
const NEGATIONS: &str = "not no never none nobody nothing neither nor without cannot nowhere";

/// True when the space-separated `list` holds `word`.
fn listed(list: &str, word: &str) -> bool {
    list.split_whitespace().any(|listed| listed == word)
}

/// The numbers (digits, number words and ordinals as digits, in order), date words and negations of `text`.
fn particulars(text: &str) -> Vec<String> {
    let lower = crate::core::case::lowercase(text);
    let words = lower.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’'));
    let mut found = Vec::new();
    for word in words.filter(|word| !word.is_empty()) {
        let word = word.trim_matches(|c| c == '\'' || c == '’');
        let digits: String = word.chars().take_while(char::is_ascii_digit).collect();
        if !digits.is_empty() {
            // "35", "3rd", "12th", "007": the number, without its suffix or leading zeros.
            let trimmed = digits.trim_start_matches('0');
            found.push(if trimmed.is_empty() { "0".to_owned() } else { trimmed.to_owned() });
        } else if let Some(digits) =
            NUMBER_WORDS.split_whitespace().find_map(|pair| pair.strip_prefix(word)?.strip_prefix(':'))
        {
            found.push(digits.to_owned());
        } else if listed(DATE_WORDS, word) {
            found.push(word.to_owned());
        } else if listed(NEGATIONS, word) || word.ends_with("n't") || word.ends_with("n’t") {
            found.push("not".to_owned());
        }
    }
    found
}

/// True when `a` and `b` state the same numbers, dates and negations (in any order).
pub(super) fn same_particulars(a: &str, b: &str) -> bool {
    let (mut a, mut b) = (particulars(a), particulars(b));
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

#[cfg(test)]
mod tests {
    use super::same_particulars;

    #[test]
    fn numbers_dates_and_negations_are_particulars_and_other_words_are_not() {
        let differ = [
            ("User has 2 kids", "User has 3 kids"),
            ("User is 34 years old", "User is 35 years old"),
            ("User likes jazz", "User does not like jazz"),
            ("User likes jazz", "User doesn't like jazz"),
            ("User likes jazz", "User never liked jazz"),
            ("Trip on 12 May", "Trip on 14 May"),
            ("Trip in May", "Trip in June"),
            ("Meets Bob on Monday", "Meets Bob on Friday"),
            ("Ran 5 km", "Ran 5.5 km"),
            ("Born in 1990", "Born in 1991"),
        ];
        for (a, b) in differ {
            assert!(!same_particulars(a, b), "{a:?} / {b:?}");
        }
        let same = [
            ("User has 2 kids", "User really has two kids"),
            ("User lives in Paris", "User really lives in Paris"),
            ("Came 3rd in 2023", "Finished third in 2023"),
            ("User doesn't eat meat", "User does not eat meat"),
            ("Trip on 12 May 2024", "In May 2024, a trip on the 12th"),
        ];
        for (a, b) in same {
            assert!(same_particulars(a, b), "{a:?} / {b:?}");
        }
    }
}
