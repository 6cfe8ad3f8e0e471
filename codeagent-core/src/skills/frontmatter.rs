//! The YAML frontmatter of a `SKILL.md`: the block between a first line
//! `---` and the next line `---`, rendered as the JSON object the extension
//! publishes, with the two fields the Agent Skills specification requires.

use serde_json::{Map, Number, Value};
use yaml_rust2::{Yaml, YamlLoader};

/// The longest `description` the Agent Skills specification allows, in characters.
const MAX_DESCRIPTION_CHARS: usize = 1024;

/// The frontmatter of `text` (a whole `SKILL.md`) as a JSON object, with a
/// valid `name` and a `description`; the reason otherwise.
pub(super) fn parse(text: &str) -> Result<Map<String, Value>, String> {
    let yaml = block(text)
        .ok_or("SKILL.md must begin with YAML frontmatter: a line `---`, the YAML, and a closing line `---`")?;
    let documents = YamlLoader::load_from_str(yaml).map_err(|error| format!("the frontmatter is not YAML: {error}"))?;
    let frontmatter = match documents.as_slice() {
        [document] => to_json(document)?,
        _ => return Err("the frontmatter must be one YAML mapping".to_owned()),
    };
    let Value::Object(frontmatter) = frontmatter else {
        return Err("the frontmatter must be a YAML mapping (name: ..., description: ...)".to_owned());
    };
    match frontmatter.get("name") {
        Some(Value::String(name)) => check_name(name)?,
        Some(_) => return Err("the frontmatter `name` must be a string".to_owned()),
        None => return Err("the frontmatter has no `name`".to_owned()),
    }
    match frontmatter.get("description") {
        Some(Value::String(description)) if description.trim().is_empty() => {
            return Err("the frontmatter `description` is empty".to_owned());
        }
        Some(Value::String(description)) if description.chars().count() > MAX_DESCRIPTION_CHARS => {
            return Err(format!("the frontmatter `description` is longer than {MAX_DESCRIPTION_CHARS} characters"));
        }
        Some(Value::String(_)) => {}
        Some(_) => return Err("the frontmatter `description` must be a string".to_owned()),
        None => return Err("the frontmatter has no `description`".to_owned()),
    }
    Ok(frontmatter)
}

/// The YAML between the opening and the closing `---` lines, when `text`
/// starts with such a block (after a byte order mark, if any).
fn block(text: &str) -> Option<&str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rest = text.strip_prefix("---\n").or_else(|| text.strip_prefix("---\r\n"))?;
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']).trim_end_matches([' ', '\t']);
        if content == "---" {
            return Some(&rest[..offset]);
        }
        offset += line.len();
    }
    None
}

/// Whether `name` follows the Agent Skills naming rules: 1 to 64 lowercase
/// letters, digits and hyphens, with no hyphen first, last or doubled.
pub(super) fn check_name(name: &str) -> Result<(), String> {
    let valid = (1..=64).contains(&name.len())
        && name.bytes().all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--");
    if valid {
        Ok(())
    } else {
        Err(format!(
            "the frontmatter name `{name}` breaks the Agent Skills naming rules: 1 to 64 lowercase letters, \
             digits and hyphens, no hyphen first, last or twice in a row"
        ))
    }
}

/// `yaml` as JSON; mapping keys must be strings and numbers finite.
fn to_json(yaml: &Yaml) -> Result<Value, String> {
    Ok(match yaml {
        Yaml::Null => Value::Null,
        Yaml::Boolean(value) => Value::Bool(*value),
        Yaml::Integer(value) => Value::from(*value),
        Yaml::Real(text) => {
            let number = yaml.as_f64().and_then(Number::from_f64);
            Value::Number(number.ok_or_else(|| format!("the frontmatter number `{text}` is not finite"))?)
        }
        Yaml::String(text) => Value::String(text.clone()),
        Yaml::Array(items) => Value::Array(items.iter().map(to_json).collect::<Result<_, _>>()?),
        Yaml::Hash(entries) => {
            let mut object = Map::new();
            for (key, value) in entries {
                let Yaml::String(key) = key else {
                    return Err(format!("the frontmatter key {key:?} is not a string"));
                };
                object.insert(key.clone(), to_json(value)?);
            }
            Value::Object(object)
        }
        Yaml::Alias(_) | Yaml::BadValue => {
            return Err("the frontmatter holds a YAML value with no JSON form (an alias)".to_owned());
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_block_between_the_dashes_is_the_frontmatter() {
        let text = "---\nname: pdf\ndescription: Fill PDF forms\nmetadata:\n  version: \"2.1\"\n---\n# Body\n";
        let frontmatter = parse(text).unwrap();
        assert_eq!(
            Value::Object(frontmatter),
            serde_json::json!({"name": "pdf", "description": "Fill PDF forms", "metadata": {"version": "2.1"}})
        );
        // A byte order mark, CRLF lines and a closing line with trailing blanks.
        let windows = "\u{feff}---\r\nname: pdf\r\ndescription: d\r\n--- \t\r\nbody";
        assert_eq!(parse(windows).unwrap()["name"], "pdf");
    }

    #[test]
    fn each_wrong_frontmatter_has_its_reason() {
        let cases = [
            ("# no frontmatter\n", "must begin with YAML frontmatter"),
            ("---\nname: pdf\ndescription: d\n", "closing line"),
            ("---\nname: [unclosed\n---\n", "is not YAML"),
            ("---\n- a list\n---\n", "must be a YAML mapping"),
            ("---\ndescription: d\n---\n", "has no `name`"),
            ("---\nname: 7\ndescription: d\n---\n", "`name` must be a string"),
            ("---\nname: PDF\ndescription: d\n---\n", "naming rules"),
            ("---\nname: a--b\ndescription: d\n---\n", "naming rules"),
            ("---\nname: pdf\n---\n", "has no `description`"),
            ("---\nname: pdf\ndescription: \"  \"\n---\n", "`description` is empty"),
            ("---\nname: pdf\ndescription: d\n1: one\n---\n", "is not a string"),
            ("---\nname: pdf\ndescription: d\nsize: .inf\n---\n", "not finite"),
        ];
        for (text, expected) in cases {
            let reason = parse(text).unwrap_err();
            assert!(reason.contains(expected), "{text:?}: {reason}");
        }
        let long = format!("---\nname: pdf\ndescription: {}\n---\n", "x".repeat(1025));
        assert!(parse(&long).unwrap_err().contains("longer than 1024"));
    }
}
