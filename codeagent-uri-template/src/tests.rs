use std::collections::BTreeMap;

use super::{InvalidTemplate, UriTemplate};

fn template(text: &str) -> UriTemplate {
    match UriTemplate::parse(text) {
        Ok(template) => template,
        Err(error) => panic!("{text:?} should parse: {error}"),
    }
}

fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs.iter().map(|&(name, value)| (name.to_owned(), value.to_owned())).collect()
}

/// The variables of RFC 6570 sections 1.2 and 3.2 (string values only).
fn rfc_values() -> BTreeMap<String, String> {
    map(&[
        ("var", "value"),
        ("hello", "Hello World!"),
        ("path", "/foo/bar"),
        ("x", "1024"),
        ("y", "768"),
        ("empty", ""),
        ("half", "50%"),
        ("who", "fred"),
        ("base", "http://example.com/home/"),
        ("v", "6"),
    ])
}

fn check_expansions(cases: &[(&str, &str)]) {
    let values = rfc_values();
    for &(text, expected) in cases {
        assert_eq!(template(text).expand(&values), expected, "expanding {text:?}");
    }
}

// --- RFC 6570 example tables ----------------------------------------------

#[test]
fn rfc_section_1_2_levels_1_to_3() {
    check_expansions(&[
        // Level 1
        ("{var}", "value"),
        ("{hello}", "Hello%20World%21"),
        // Level 2
        ("{+var}", "value"),
        ("{+hello}", "Hello%20World!"),
        ("{+path}/here", "/foo/bar/here"),
        ("here?ref={+path}", "here?ref=/foo/bar"),
        ("X{#var}", "X#value"),
        ("X{#hello}", "X#Hello%20World!"),
        // Level 3
        ("map?{x,y}", "map?1024,768"),
        ("{x,hello,y}", "1024,Hello%20World%21,768"),
        ("{+x,hello,y}", "1024,Hello%20World!,768"),
        ("{+path,x}/here", "/foo/bar,1024/here"),
        ("{#x,hello,y}", "#1024,Hello%20World!,768"),
        ("{#path,x}/here", "#/foo/bar,1024/here"),
        ("X{.var}", "X.value"),
        ("X{.x,y}", "X.1024.768"),
        ("{/var}", "/value"),
        ("{/var,x}/here", "/value/1024/here"),
        ("{;x,y}", ";x=1024;y=768"),
        ("{;x,y,empty}", ";x=1024;y=768;empty"),
        ("{?x,y}", "?x=1024&y=768"),
        ("{?x,y,empty}", "?x=1024&y=768&empty="),
        ("?fixed=yes{&x}", "?fixed=yes&x=1024"),
        ("{&x,y,empty}", "&x=1024&y=768&empty="),
    ]);
}

#[test]
fn rfc_section_3_2_simple_and_reserved() {
    check_expansions(&[
        ("{half}", "50%25"),
        ("O{empty}X", "OX"),
        ("O{undef}X", "OX"),
        ("?{x,empty}", "?1024,"),
        ("?{x,undef}", "?1024"),
        ("?{undef,y}", "?768"),
        ("{var:3}", "val"),
        ("{var:30}", "value"),
        ("{+half}", "50%25"),
        ("{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex"),
        ("{+base}index", "http://example.com/home/index"),
        ("O{+empty}X", "OX"),
        ("O{+undef}X", "OX"),
        ("up{+path}{var}/here", "up/foo/barvalue/here"),
        ("{+path:6}/here", "/foo/b/here"),
        ("{var*}", "value"),
    ]);
}

#[test]
fn rfc_section_3_2_prefixed_operators() {
    check_expansions(&[
        // Fragment
        ("{#var}", "#value"),
        ("{#half}", "#50%25"),
        ("foo{#empty}", "foo#"),
        ("foo{#undef}", "foo"),
        ("{#path:6}/here", "#/foo/b/here"),
        // Label
        ("{.who}", ".fred"),
        ("{.half,who}", ".50%25.fred"),
        ("X{.empty}", "X."),
        ("X{.undef}", "X"),
        ("X{.var:3}", "X.val"),
        // Path segments
        ("{/who}", "/fred"),
        ("{/half,who}", "/50%25/fred"),
        ("{/var,empty}", "/value/"),
        ("{/var,undef}", "/value"),
        // Path-style parameters
        ("{;who}", ";who=fred"),
        ("{;half}", ";half=50%25"),
        ("{;empty}", ";empty"),
        ("{;v,empty,who}", ";v=6;empty;who=fred"),
        ("{;v,bar,who}", ";v=6;who=fred"),
        ("{;x,y,undef}", ";x=1024;y=768"),
        ("{;hello:5}", ";hello=Hello"),
        // Query
        ("{?who}", "?who=fred"),
        ("{?half}", "?half=50%25"),
        ("{?x,y,undef}", "?x=1024&y=768"),
        ("{?var:3}", "?var=val"),
        ("{?undef}", ""),
        // Query continuation
        ("{&who}", "&who=fred"),
        ("{&half}", "&half=50%25"),
        ("{&var:3}", "&var=val"),
    ]);
}

#[test]
fn expansion_encodes_non_ascii_and_keeps_triplets_only_when_reserved_allowed() {
    let values = map(&[("v", "é/%41 x"), ("p", "ab%4"), ("u", "中文")]);
    assert_eq!(template("{v}").expand(&values), "%C3%A9%2F%2541%20x");
    assert_eq!(template("{+v}").expand(&values), "%C3%A9/%41%20x");
    assert_eq!(template("{+p}").expand(&values), "ab%254");
    assert_eq!(template("{u:1}").expand(&values), "%E4%B8%AD");
    assert_eq!(template("{+v:3}").expand(&values), "%C3%A9/%41");
    assert_eq!(template("docs://café/{u}").expand(&values), "docs://caf%C3%A9/%E4%B8%AD%E6%96%87");
}

// --- Matching ---------------------------------------------------------------

fn matched(text: &str, uri: &str) -> Option<BTreeMap<String, String>> {
    template(text).matches(uri)
}

#[test]
fn simple_variable_matches_one_segment() {
    assert_eq!(matched("users://{id}/profile", "users://42/profile"), Some(map(&[("id", "42")])));
    assert_eq!(matched("users://{id}/profile", "users://a%20b/profile"), Some(map(&[("id", "a b")])));
    assert_eq!(matched("users://{id}/profile", "users://a/b/profile"), None, "reserved `/` in a simple variable");
    assert_eq!(matched("users://{id}/profile", "users://a:b/profile"), None, "reserved `:` in a simple variable");
    assert_eq!(matched("users://{id}/profile", "users://a%2Fb/profile"), Some(map(&[("id", "a/b")])));
}

#[test]
fn negative_cases() {
    let users = template("users://{id}/profile");
    assert_eq!(users.matches("users:///profile"), None, "empty simple value");
    assert_eq!(users.matches("users://42"), None, "missing literal");
    assert_eq!(users.matches("users://42/profile/x"), None, "trailing garbage");
    assert_eq!(users.matches("users://42/profilex"), None, "trailing garbage");
    assert_eq!(users.matches("groups://42/profile"), None, "wrong scheme");
    assert_eq!(users.matches("xusers://42/profile"), None, "leading garbage");
    assert_eq!(users.matches("users://4 2/profile"), None, "space");
    assert_eq!(users.matches("users://42/profile\n"), None, "newline");
    assert_eq!(users.matches(""), None);
}

#[test]
fn invalid_escapes_do_not_match() {
    let users = template("users://{id}/profile");
    assert_eq!(users.matches("users://a%2/profile"), None);
    assert_eq!(users.matches("users://a%zz/profile"), None);
    assert_eq!(users.matches("users://a%/profile"), None);
    assert_eq!(users.matches("users://%FF/profile"), None, "not UTF-8 once decoded");
    assert_eq!(users.matches("users://%C3%A9/profile"), Some(map(&[("id", "é")])));
    assert_eq!(matched("file:///{+path}", "file:///a%ZZ"), None);
    assert_eq!(matched("q{?a}", "q?a=%G1"), None);
    assert_eq!(matched("q{?a}", "q?a=%C3"), None);
}

#[test]
fn reserved_expansion_matches_slashes() {
    assert_eq!(matched("file:///{+path}", "file:///src/lib.rs"), Some(map(&[("path", "src/lib.rs")])));
    assert_eq!(matched("file:///{+path}", "file:///a%20b/c?d#e"), Some(map(&[("path", "a b/c?d#e")])));
    assert_eq!(matched("file:///{+path}", "file:///"), None, "empty reserved value");
    assert_eq!(matched("file:///{+path}", "file:///a b"), None);
    assert_eq!(matched("{+path}/here", "/foo/bar/here"), Some(map(&[("path", "/foo/bar")])));
    assert_eq!(matched("up{+path}/x{var}", "up/a/b/xv"), Some(map(&[("path", "/a/b"), ("var", "v")])));
}

#[test]
fn fragment_label_path_and_param_operators_match() {
    assert_eq!(matched("X{#hello}", "X#Hello%20World!"), Some(map(&[("hello", "Hello World!")])));
    assert_eq!(matched("foo{#f}", "foo#"), Some(map(&[("f", "")])));
    assert_eq!(matched("foo{#f}", "foo"), Some(map(&[])));
    assert_eq!(matched("X{.ext}", "X.tar.gz"), Some(map(&[("ext", "tar.gz")])));
    assert_eq!(matched("X{.ext}", "X"), Some(map(&[])));
    assert_eq!(matched("api{/version}/items", "api/v1/items"), Some(map(&[("version", "v1")])));
    assert_eq!(matched("api{/version}/items", "api/items"), Some(map(&[])));
    assert_eq!(matched("api{/version}/items", "api/v/1/items"), None);
    assert_eq!(matched("{/var,x}/here", "/value/1024/here"), Some(map(&[("var", "value"), ("x", "1024")])));
    assert_eq!(matched("{/var,x}/here", "/value/here"), Some(map(&[("var", "value")])));
    assert_eq!(matched("m{;x,y}", "m;x=1024;y=768"), Some(map(&[("x", "1024"), ("y", "768")])));
    assert_eq!(matched("m{;x,y}", "m;y=768"), Some(map(&[("y", "768")])));
    assert_eq!(matched("m{;x,xy}", "m;xy=5"), Some(map(&[("xy", "5")])));
    assert_eq!(matched("m{;x,y,empty}", "m;x=1;y=2;empty"), Some(map(&[("x", "1"), ("y", "2"), ("empty", "")])));
    assert_eq!(matched("m{;x}", "m;x=a;b"), None);
    assert_eq!(matched("map?{x,y}", "map?1024,768"), Some(map(&[("x", "1024"), ("y", "768")])));
    assert_eq!(matched("map?{x,y}", "map?1024"), Some(map(&[("x", "1024")])), "values fill from the left");
}

#[test]
fn query_parameters_in_any_order_and_optional() {
    let search = template("search://{q}{?limit,offset}");
    let expect = |pairs: &[(&str, &str)]| Some(map(pairs));
    assert_eq!(search.matches("search://rust"), expect(&[("q", "rust")]));
    assert_eq!(search.matches("search://rust?limit=10"), expect(&[("q", "rust"), ("limit", "10")]));
    assert_eq!(
        search.matches("search://rust?offset=2&limit=10"),
        expect(&[("q", "rust"), ("limit", "10"), ("offset", "2")])
    );
    assert_eq!(search.matches("search://rust?limit="), expect(&[("q", "rust"), ("limit", "")]));
    assert_eq!(search.matches("search://r%20s?limit=a%26b"), expect(&[("q", "r s"), ("limit", "a&b")]));
    assert_eq!(search.matches("search://rust?"), None, "a lone `?`");
    assert_eq!(search.matches("search://rust?page=1"), None, "unknown parameter");
    assert_eq!(search.matches("search://rust?limit=1&limit=2"), None, "repeated parameter");
    assert_eq!(search.matches("search://rust?limit"), None, "no `=`");
    assert_eq!(search.matches("search://rust?limit=1&"), None, "empty parameter");
    assert_eq!(search.matches("search://rust?limit=a/b"), None, "reserved character in a value");
    assert_eq!(search.matches("search://rust&limit=1"), None);

    let fixed = template("list?fixed=yes{&x,y}");
    assert_eq!(fixed.matches("list?fixed=yes&y=2&x=1"), expect(&[("x", "1"), ("y", "2")]));
    assert_eq!(fixed.matches("list?fixed=yes"), expect(&[]));
    assert_eq!(fixed.matches("list?fixed=no&x=1"), None);

    let both = template("items{?a}{&b}");
    assert_eq!(both.matches("items?b=2&a=1"), expect(&[("a", "1"), ("b", "2")]));

    let path = template("file:///{+path}{?rev}");
    assert_eq!(path.matches("file:///a/b?rev=3"), expect(&[("path", "a/b"), ("rev", "3")]));
    assert_eq!(path.matches("file:///a/b"), expect(&[("path", "a/b")]));
}

/// Found by the `uri_template` fuzz target: with the `{?…}` expression
/// wholly undefined, the expansion's query starts with the `&` of the `{&…}`
/// after it, and the matcher only accepted a query starting with `?`.
#[test]
fn a_query_continuation_matches_when_the_query_before_it_is_undefined() {
    let both = template("res://{x}/{y}{?z}{&w}");
    let values = map(&[("w", "4"), ("x", "0"), ("y", "2")]);
    let uri = both.expand(&values);
    assert_eq!(uri, "res://0/2&w=4");
    assert_eq!(both.matches(&uri), Some(values));
    assert_eq!(both.matches("res://0/2?w=4&z=1"), Some(map(&[("w", "4"), ("x", "0"), ("y", "2"), ("z", "1")])));
    // A `{+…}` value before the query holds neither character that may start it.
    let reserved = template("file:///{+path}{?rev}{&x}");
    assert_eq!(reserved.matches("file:///a/b&x=1"), Some(map(&[("path", "a/b"), ("x", "1")])));
    assert_eq!(template("items{?a}{&b}").matches("items&b=2"), Some(map(&[("b", "2")])));
    // A query of `{&…}` only still needs its `&`.
    assert_eq!(template("list?fixed=yes{&x}").matches("list?fixed=yes?x=1"), None);
}

#[test]
fn literal_templates_and_non_ascii_literals() {
    let literal = template("config://app");
    assert!(literal.is_literal() && literal.is_matchable());
    assert_eq!(literal.matches("config://app"), Some(BTreeMap::new()));
    assert_eq!(literal.matches("config://ap"), None);
    assert!(!template("config://{x}").is_literal());

    let docs = template("docs://café/{page}");
    assert_eq!(docs.matches("docs://café/a"), Some(map(&[("page", "a")])));
    assert_eq!(docs.matches("docs://caf%C3%A9/a"), Some(map(&[("page", "a")])));
    assert_eq!(docs.matches("docs://caf%c3%a9/a"), Some(map(&[("page", "a")])));
    assert_eq!(docs.matches("docs://cafe/a"), None);
    assert_eq!(template("a%2Fb/{x}").matches("a%2fb/1"), Some(map(&[("x", "1")])));
}

#[test]
fn longest_value_for_the_first_variable() {
    assert_eq!(matched("{name}.{ext}", "a.tar.gz"), Some(map(&[("name", "a.tar"), ("ext", "gz")])));
    assert_eq!(matched("{name}{/rest}", "a/b"), Some(map(&[("name", "a"), ("rest", "b")])));
}

#[test]
fn ambiguous_templates_are_not_matchable() {
    for text in [
        "{a*}", "x/{a:3}", "{/a*}", "{a}{b}", "{a}{+b}", "{a}{.b}", "{/a}{b}", "{+a}{/b}", "{#a}{;b}", "{+a,b}",
        "{#a,b}", "X{.a,b}", "{?q}/x", "{?q}{/x}", "{?q:2}",
    ] {
        let template = template(text);
        assert!(!template.is_matchable(), "{text:?}");
        assert_eq!(template.matches(&template.expand(&map(&[("a", "1"), ("b", "2")]))), None, "{text:?}");
    }
    for text in ["{a}{/b}", "{a}{;b}", "{a}{#b}", "{a}{?b}", "{/a}{/b}", "{+a}{?b}", "{a,b}", "{/a,b}", "{?a}{&b}"] {
        assert!(template(text).is_matchable(), "{text:?}");
    }
}

#[test]
fn round_trips_for_each_operator() {
    let values = ["value", "Hello World!", "/foo/bar", "a,b;c=d&e", "é中😀", "50%", "-._~", "?#[]@"];
    for text in ["s:{v}", "s:{+v}", "s:{#v}", "s:{.v}", "s:{/v}", "s:{;v}", "s:{?v}", "s?x=1{&v}"] {
        let template = template(text);
        for value in values {
            if text == "s:{+v}" && value == "50%" {
                continue;
            }
            let expected = map(&[("v", value)]);
            let uri = template.expand(&expected);
            assert_eq!(template.matches(&uri), Some(expected), "{text:?} with {value:?} expanded to {uri:?}");
        }
    }
}

// --- Invalid templates ------------------------------------------------------

#[test]
fn every_invalid_template_case() {
    use InvalidTemplate as E;
    let name = |name: &str, offset| E::InvalidVariableName { name: name.to_owned(), offset };
    let cases: Vec<(&str, InvalidTemplate, &str)> = vec![
        ("a{var", E::UnclosedExpression { offset: 1 }, "unclosed `{` at byte 1"),
        ("{a{b}", E::UnclosedExpression { offset: 0 }, "unclosed `{` at byte 0"),
        ("a}b", E::UnmatchedClose { offset: 1 }, "`}` without a matching `{` at byte 1"),
        ("x{}", E::EmptyExpression { offset: 1 }, "empty expression at byte 1"),
        ("{+}", E::EmptyExpression { offset: 0 }, "empty expression at byte 0"),
        ("{a,}", name("", 3), "invalid variable name `` at byte 3"),
        ("{a-b}", name("a-b", 1), "invalid variable name `a-b` at byte 1"),
        ("{/a.}", name("a.", 2), "invalid variable name `a.` at byte 2"),
        ("{.a..b}", name("a..b", 2), "invalid variable name `a..b` at byte 2"),
        ("{x,%2}", name("%2", 3), "invalid variable name `%2` at byte 3"),
        ("{x, y}", name(" y", 3), "invalid variable name ` y` at byte 3"),
        ("{a**}", name("a*", 1), "invalid variable name `a*` at byte 1"),
        ("{$x}", E::UnknownOperator { operator: '$', offset: 1 }, "unknown operator `$` at byte 1"),
        ("{-x}", E::UnknownOperator { operator: '-', offset: 1 }, "unknown operator `-` at byte 1"),
        ("{=x}", E::ReservedOperator { operator: '=', offset: 1 }, "operator `=` is reserved by RFC 6570, at byte 1"),
        ("{,x}", E::ReservedOperator { operator: ',', offset: 1 }, "operator `,` is reserved by RFC 6570, at byte 1"),
        ("{!x}", E::ReservedOperator { operator: '!', offset: 1 }, "operator `!` is reserved by RFC 6570, at byte 1"),
        ("{@x}", E::ReservedOperator { operator: '@', offset: 1 }, "operator `@` is reserved by RFC 6570, at byte 1"),
        ("{|x}", E::ReservedOperator { operator: '|', offset: 1 }, "operator `|` is reserved by RFC 6570, at byte 1"),
        (
            "{x}/{x}",
            E::DuplicateVariable { name: "x".to_owned(), offset: 5 },
            "variable `x` used twice, again at byte 5",
        ),
        (
            "{x,x*}",
            E::DuplicateVariable { name: "x".to_owned(), offset: 3 },
            "variable `x` used twice, again at byte 3",
        ),
        (
            "{x:0}",
            E::InvalidPrefixLength { length: "0".to_owned(), offset: 3 },
            "invalid prefix length `0` at byte 3: must be 1 to 9999",
        ),
        (
            "{x:10000}",
            E::InvalidPrefixLength { length: "10000".to_owned(), offset: 3 },
            "invalid prefix length `10000` at byte 3: must be 1 to 9999",
        ),
        (
            "{y,x:}",
            E::InvalidPrefixLength { length: String::new(), offset: 5 },
            "invalid prefix length `` at byte 5: must be 1 to 9999",
        ),
        (
            "{x:01}",
            E::InvalidPrefixLength { length: "01".to_owned(), offset: 3 },
            "invalid prefix length `01` at byte 3: must be 1 to 9999",
        ),
        (
            "{x:3*}",
            E::InvalidPrefixLength { length: "3*".to_owned(), offset: 3 },
            "invalid prefix length `3*` at byte 3: must be 1 to 9999",
        ),
        ("%2g", E::InvalidPercentEncoding { offset: 0 }, "`%` not followed by two hexadecimal digits at byte 0"),
        ("ab%", E::InvalidPercentEncoding { offset: 2 }, "`%` not followed by two hexadecimal digits at byte 2"),
    ];
    for (text, error, message) in cases {
        assert_eq!(UriTemplate::parse(text), Err(error.clone()), "{text:?}");
        assert_eq!(error.to_string(), message, "{text:?}");
        assert!(error.offset() < text.len(), "{text:?}");
    }
}

#[test]
fn characters_not_allowed_in_literals() {
    for (text, character, offset) in [
        ("a b", ' ', 1),
        ("<x", '<', 0),
        ("x>", '>', 1),
        ("\"", '"', 0),
        ("'", '\'', 0),
        ("a\\b", '\\', 1),
        ("a^", '^', 1),
        ("`", '`', 0),
        ("a|b", '|', 1),
        ("é\n", '\n', 2),
        ("{x}\t", '\t', 3),
        ("\u{7f}", '\u{7f}', 0),
        ("a\u{85}", '\u{85}', 1),
        ("\u{fffe}", '\u{fffe}', 0),
    ] {
        let error = InvalidTemplate::InvalidLiteral { character, offset };
        assert_eq!(UriTemplate::parse(text), Err(error.clone()), "{text:?}");
        assert_eq!(error.offset(), offset);
        assert!(error.to_string().contains(&format!("{character:?}")), "{error}");
    }
    assert_eq!(
        InvalidTemplate::InvalidLiteral { character: ' ', offset: 1 }.to_string(),
        "character ' ' not allowed in a URI template literal, at byte 1"
    );
}

#[test]
fn parsing_arbitrary_text_never_panics() {
    let mut random = Random(7);
    let pieces =
        ["{", "}", "+", "#", ".", "/", ";", "?", "&", ",", ":", "*", "%", "%4", "%41", "x", "é", "9", " ", "="];
    for _ in 0..2000 {
        let length = random.below(12);
        let text: String = (0..length).map(|_| pieces[random.below(pieces.len())]).collect();
        if let Ok(template) = UriTemplate::parse(&text) {
            let values = map(&[("x", "a/é%")]);
            let uri = template.expand(&values);
            let _ = template.matches(&uri);
            let _ = template.matches(&text);
        }
    }
}

// --- API surface ------------------------------------------------------------

#[test]
fn accessors_display_from_str_and_serde() {
    let text = "file:///{+path}{?rev,x}";
    let parsed: UriTemplate = text.parse().unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(parsed.as_str(), text);
    assert_eq!(parsed.to_string(), text);
    assert_eq!(format!("{parsed:?}"), format!("UriTemplate({text:?})"));
    assert_eq!(parsed.variables().collect::<Vec<_>>(), ["path", "rev", "x"]);
    assert_eq!(parsed, template(text));
    assert_ne!(parsed, template("file:///{+path}"));
}

#[cfg(feature = "serde")]
#[test]
fn serde_as_text() {
    let text = "file:///{+path}{?rev,x}";
    let parsed = template(text);
    assert_eq!(serde_json::to_string(&parsed).ok(), Some(format!("{text:?}")));
    let back: Result<UriTemplate, _> = serde_json::from_str(&format!("{text:?}"));
    assert_eq!(back.ok(), Some(parsed.clone()));
    assert!(serde_json::from_str::<UriTemplate>("\"{x\"").is_err());
}

// --- Property-style round trips -------------------------------------------

/// A small deterministic generator (xorshift64*).
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, bound: usize) -> usize {
        usize::try_from(self.next() % u64::try_from(bound).unwrap_or(1)).unwrap_or(0)
    }

    /// A string of 0..12 characters drawn from printable ASCII, a few
    /// non-ASCII characters and `%`, never containing a character of `avoid`.
    fn string(&mut self, non_empty: bool, avoid: &str) -> String {
        const EXTRA: [char; 6] = ['é', '中', '😀', '%', '\u{a0}', 'ß'];
        let length = self.below(12) + usize::from(non_empty);
        let mut out = String::new();
        while out.chars().count() < length {
            let c = if self.below(4) == 0 {
                EXTRA[self.below(EXTRA.len())]
            } else {
                char::from(b' ' + u8::try_from(self.below(95)).unwrap_or(0))
            };
            if !avoid.contains(c) {
                out.push(c);
            }
        }
        out
    }
}

#[test]
fn property_match_inverts_expand() {
    let mut random = Random(0x5EED_1234_ABCD_0001);
    let simple = template("res://{var}/tail");
    // `{+var}` keeps pct-encoded triplets, which matching decodes: no `%`.
    let reserved = template("file:///{+var}");
    let path = template("api{/var}");
    let query = template("search://x{?a,b}");
    for round in 0..400 {
        let values = map(&[("var", &random.string(true, ""))]);
        assert_eq!(simple.matches(&simple.expand(&values)).as_ref(), Some(&values), "round {round}");

        let values = map(&[("var", &random.string(true, "%"))]);
        assert_eq!(reserved.matches(&reserved.expand(&values)).as_ref(), Some(&values), "round {round}");

        let values = map(&[("var", &random.string(false, ""))]);
        assert_eq!(path.matches(&path.expand(&values)).as_ref(), Some(&values), "round {round}");

        let mut values = BTreeMap::new();
        for name in ["a", "b"] {
            if random.below(3) != 0 {
                values.insert(name.to_owned(), random.string(false, ""));
            }
        }
        assert_eq!(query.matches(&query.expand(&values)).as_ref(), Some(&values), "round {round}");
    }
}

/// The type's doctest, run here too (`cargo test --lib` skips doctests).
#[test]
fn type_doc_example() {
    let template = template("file:///{+path}{?rev}");
    assert_eq!(template.variables().collect::<Vec<_>>(), ["path", "rev"]);
    let values = template.matches("file:///src/lib%20x.rs?rev=42");
    assert_eq!(values, Some(map(&[("path", "src/lib x.rs"), ("rev", "42")])));
    assert_eq!(template.expand(&map(&[("path", "src/main.rs")])), "file:///src/main.rs");
    assert_eq!(matched("users://{id}/profile", "users://a/b/profile"), None);
}
