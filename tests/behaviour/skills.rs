//! Served skills (SEP-2640) through the server, in both eras: the
//! conformance fixture's `skills/` folder served with `Server::with_skills`,
//! one item a page, checked against the files on disk (`common::skills`):
//! `skills/list` page by page, `skills/get`, each file read as a `skill://`
//! resource with the digest and size the listing promised,
//! `resources/directory/read` on every folder, and an unknown URI an
//! invalid-params error naming it.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use codeagent::skills::Skills;
use codeagent::{Server, Toolbox};
use serde_json::{Value, json};

use super::modern;
use crate::common::client::{Client, Transport};
use crate::common::skills::{DiskChild, DiskSkill, fixture, fixture_dir, sha256};
use crate::common::{INVALID_PARAMS, METHOD_NOT_FOUND, V2025_11};

over_both!(
    skills_are_advertised_and_listed_page_by_page,
    skills_get_answers_each_listed_entry,
    every_file_read_matches_the_digest_and_size_promised,
    skill_folders_are_read_as_directories_page_by_page,
    an_unknown_uri_is_invalid_params_naming_it,
    a_server_without_skills_knows_no_skills_method,
);

/// The extension's identifier.
const EXTENSION: &str = "io.modelcontextprotocol/skills";

/// The eras a case runs in.
#[derive(Clone, Copy, Debug)]
enum Era {
    Legacy,
    Modern,
}

const ERAS: [Era; 2] = [Era::Legacy, Era::Modern];

/// A server serving the fixture's skills, one item a listing page.
fn skills_server() -> Server {
    let skills = Skills::from_dir(fixture_dir()).expect("the fixture's skills are valid");
    Server::new(Toolbox::new().with_page_size(1)).with_skills(skills).expect("no URI taken")
}

/// A client of [`skills_server`] in `era`.
async fn client(transport: Transport, era: Era) -> Client {
    started(transport, era, skills_server()).await.0
}

/// A client of `server` in `era`, and the capabilities the server declared
/// (in `initialize` at 2025-11-25, or `server/discover`).
async fn started(transport: Transport, era: Era, server: Server) -> (Client, Value) {
    let mut client = Client::start(transport, server).await;
    let capabilities = match era {
        Era::Legacy => client.initialize(V2025_11).await["capabilities"].clone(),
        Era::Modern => client.result("discover", "server/discover", modern(json!({}))).await["capabilities"].clone(),
    };
    (client, capabilities)
}

/// `params` as `era` sends them.
fn params(era: Era, params: Value) -> Value {
    match era {
        Era::Legacy => params,
        Era::Modern => modern(params),
    }
}

/// The most pages a listing of the fixture may take.
const MAX_PAGES: usize = 64;

/// Every page of listing `method` (with `request`, plus the cursor after the
/// first page), each checked to hold one item (the server's page size) and,
/// in 2026-07-28, its caching hints: the items, in order, and how many pages
/// there were.
async fn all_pages(client: &mut Client, era: Era, method: &str, key: &str, request: Value) -> (Vec<Value>, usize) {
    let mut items = Vec::new();
    let mut cursor: Option<String> = None;
    for page in 1..=MAX_PAGES {
        let mut request = request.clone();
        if let Some(cursor) = &cursor {
            request["cursor"] = json!(cursor);
        }
        let result = client.result(format!("{method} {page}"), method, params(era, request)).await;
        let listed = result[key].as_array().unwrap_or_else(|| panic!("{method}: no {key} array in {result}"));
        assert_eq!(listed.len(), 1, "{method} page {page}: one item a page: {result}");
        items.extend(listed.iter().cloned());
        if let Era::Modern = era {
            assert!(result["ttlMs"].is_u64() && result["cacheScope"].is_string(), "{method}: caching hints: {result}");
        }
        match result.get("nextCursor").and_then(Value::as_str) {
            Some(next) => cursor = Some(next.to_owned()),
            None => return (items, page),
        }
    }
    panic!("{method}: still a nextCursor after {MAX_PAGES} pages (the cursor goes round?)")
}

/// The `uri` of each of `entries`.
fn uris(entries: &[Value]) -> Vec<&str> {
    entries.iter().map(|entry| entry["uri"].as_str().expect("a uri")).collect()
}

/// Every skill's listing entry, page by page.
async fn listed(client: &mut Client, era: Era) -> Vec<Value> {
    all_pages(client, era, "skills/list", "skills", json!({})).await.0
}

/// The bytes of the `contents` entry of a `resources/read` of `uri`.
fn read_bytes(read: &Value, uri: &str) -> Vec<u8> {
    let contents = read["contents"].as_array().expect("contents");
    assert_eq!(contents.len(), 1, "{uri}: one content: {read}");
    assert_eq!(contents[0]["uri"], uri, "{read}");
    match (contents[0]["text"].as_str(), contents[0]["blob"].as_str()) {
        (Some(text), None) => text.as_bytes().to_vec(),
        (None, Some(blob)) => STANDARD.decode(blob).expect("base64"),
        _ => panic!("{uri}: neither text nor blob: {read}"),
    }
}

/// The value of top-level scalar `key` in the frontmatter of `skill_md`, as
/// written (the fixture quotes none of them).
fn frontmatter_line<'a>(skill_md: &'a str, key: &str) -> &'a str {
    let prefix = format!("{key}: ");
    skill_md
        .lines()
        .skip(1)
        .take_while(|line| *line != "---")
        .find_map(|line| line.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("no `{key}:` in the frontmatter of {skill_md}"))
}

/// Checks a listing entry against the skill on disk: its URI, frontmatter,
/// and every file with the digest and size of its bytes.
#[track_caller]
fn assert_entry_is(entry: &Value, skill: &DiskSkill, context: &str) {
    assert_eq!(entry["uri"], skill.uri.as_str(), "{context}: {entry}");
    let frontmatter = &entry["frontmatter"];
    assert_eq!(frontmatter["name"], skill.name.as_str(), "{context}: the folder's name: {entry}");
    assert_eq!(frontmatter["description"], frontmatter_line(&skill.skill_md, "description"), "{context}: {entry}");
    let resources = entry["resources"].as_array().unwrap_or_else(|| panic!("{context}: no resources: {entry}"));
    let mut listed: Vec<&str> = uris(resources);
    listed.sort_unstable();
    assert_eq!(listed, skill.file_uris(), "{context}: every file on disk, each once: {entry}");
    assert_eq!(resources[0]["uri"], skill.uri.as_str(), "{context}: SKILL.md first: {entry}");
    for file in &skill.files {
        let resource = resources.iter().find(|resource| resource["uri"] == file.uri.as_str()).expect("listed");
        assert_eq!(resource["digest"], file.digest(), "{context}: {}", file.uri);
        assert_eq!(resource["size"], file.size(), "{context}: {}", file.uri);
    }
}

async fn skills_are_advertised_and_listed_page_by_page(transport: Transport) {
    let skills = fixture();
    assert!(skills.len() > 1, "the fixture has skills enough for two pages");
    for era in ERAS {
        let (mut client, capabilities) = started(transport, era, skills_server()).await;
        assert_eq!(capabilities["extensions"][EXTENSION], json!({"directoryRead": true}), "{transport} {era:?}");
        assert!(capabilities["resources"].is_object(), "{transport} {era:?}: skills are resources: {capabilities}");
        let (entries, pages) = all_pages(&mut client, era, "skills/list", "skills", json!({})).await;
        assert_eq!(pages, skills.len(), "{transport} {era:?}: one skill a page");
        let disk: Vec<&str> = skills.iter().map(|skill| skill.uri.as_str()).collect();
        assert_eq!(uris(&entries), disk, "{transport} {era:?}: every skill once, in path order");
        for (entry, skill) in entries.iter().zip(&skills) {
            assert_entry_is(entry, skill, &format!("{transport} {era:?} skills/list"));
        }
        let error = client.error("bad cursor", "skills/list", params(era, json!({"cursor": "not-a-cursor"}))).await;
        assert_eq!(error["code"], INVALID_PARAMS, "{transport} {era:?}: {error}");
    }
}

async fn skills_get_answers_each_listed_entry(transport: Transport) {
    let skills = fixture();
    for era in ERAS {
        let mut client = client(transport, era).await;
        let entries = listed(&mut client, era).await;
        for (entry, skill) in entries.iter().zip(&skills) {
            let got = client.result(skill.uri.as_str(), "skills/get", params(era, json!({"uri": skill.uri}))).await;
            assert_eq!(&got["skill"], entry, "{transport} {era:?}: skills/get is the listing's entry");
            assert_entry_is(&got["skill"], skill, &format!("{transport} {era:?} skills/get"));
            assert!(got.get("nextCursor").is_none(), "{transport} {era:?}: one entry is no list: {got}");
            match era {
                Era::Legacy => assert!(got.get("ttlMs").is_none(), "{transport}: no 2026 hints in 2025-11-25: {got}"),
                Era::Modern => {
                    assert!(got["ttlMs"].is_u64() && got["cacheScope"].is_string(), "{transport}: {got}");
                }
            }
        }
    }
}

async fn every_file_read_matches_the_digest_and_size_promised(transport: Transport) {
    let skills = fixture();
    for era in ERAS {
        let mut client = client(transport, era).await;
        let (resources, _) = all_pages(&mut client, era, "resources/list", "resources", json!({})).await;
        let mut blobs = 0;
        for entry in listed(&mut client, era).await {
            let skill = skills.iter().find(|skill| entry["uri"] == skill.uri.as_str()).expect("a skill on disk");
            for promised in entry["resources"].as_array().expect("resources") {
                let uri = promised["uri"].as_str().expect("a uri");
                let read = client.result(uri, "resources/read", params(era, json!({"uri": uri}))).await;
                let bytes = read_bytes(&read, uri);
                if read["contents"][0].get("blob").is_some() {
                    blobs += 1;
                    assert_eq!(read["contents"][0]["mimeType"], "image/png", "{transport} {era:?}: {uri}");
                }
                // What a client does: hash what it read, compare with the listing.
                assert_eq!(promised["digest"], sha256(&bytes), "{transport} {era:?}: {uri}");
                assert_eq!(promised["size"], bytes.len(), "{transport} {era:?}: {uri}");
                let file = skill.files.iter().find(|file| file.uri == uri).expect("a file on disk");
                assert!(bytes == file.bytes, "{transport} {era:?}: {uri} is the file's content");
                let shown = resources.iter().find(|resource| resource["uri"] == uri);
                let shown = shown.unwrap_or_else(|| panic!("{transport} {era:?}: {uri} not in resources/list"));
                assert_eq!(shown["size"], file.size(), "{transport} {era:?}: {shown}");
                if uri == skill.uri {
                    assert_eq!(read["contents"][0]["mimeType"], "text/markdown", "{transport} {era:?}: {read}");
                    assert_eq!(shown["name"], skill.name.as_str(), "{transport} {era:?}: {shown}");
                    assert_eq!(shown["description"], entry["frontmatter"]["description"], "{transport} {era:?}");
                }
            }
        }
        assert_eq!(blobs, 1, "{transport} {era:?}: the fixture's one binary file (a PNG) is read as a blob");
    }
}

async fn skill_folders_are_read_as_directories_page_by_page(transport: Transport) {
    let skills = fixture();
    for era in ERAS {
        let mut client = client(transport, era).await;
        for skill in &skills {
            for (folder, children) in &skill.folders {
                let (read, pages) =
                    all_pages(&mut client, era, "resources/directory/read", "resources", json!({"uri": folder})).await;
                assert_eq!(pages, children.len(), "{transport} {era:?}: {folder}: one child a page");
                let mut got: Vec<DiskChild> = read
                    .iter()
                    .map(|child| DiskChild {
                        uri: child["uri"].as_str().expect("a uri").to_owned(),
                        is_folder: child["mimeType"] == "inode/directory",
                    })
                    .collect();
                got.sort();
                assert_eq!(&got, children, "{transport} {era:?}: the direct children of {folder}: {read:?}");
                for child in read.iter().filter(|child| child["mimeType"] != "inode/directory") {
                    let file = skill.files.iter().find(|file| child["uri"] == file.uri.as_str()).expect("on disk");
                    assert_eq!(child["size"], file.size(), "{transport} {era:?}: {child}");
                }
            }
            let error =
                client.error("a file", "resources/directory/read", params(era, json!({"uri": skill.uri}))).await;
            assert_eq!(error["code"], INVALID_PARAMS, "{transport} {era:?}: a file is no directory: {error}");
            assert_eq!(error["data"]["uri"], skill.uri.as_str(), "{transport} {era:?}: {error}");
        }
    }
}

async fn an_unknown_uri_is_invalid_params_naming_it(transport: Transport) {
    let unknown_skill = "skill://no-such-skill/SKILL.md";
    let not_a_skill = "skill://pdf-processing/references/FORMS.md";
    let unknown_folder = "skill://pdf-processing/no-such-folder";
    let unknown_file = "skill://pdf-processing/no-such-file.md";
    for era in ERAS {
        let mut client = client(transport, era).await;
        for (method, uri) in [
            ("skills/get", unknown_skill),
            ("skills/get", not_a_skill),
            ("resources/directory/read", unknown_folder),
            ("resources/read", unknown_file),
        ] {
            let error = client.error(uri, method, params(era, json!({"uri": uri}))).await;
            // A resource not found keeps its legacy code (-32002) before 2026-07-28.
            let code = if method == "resources/read" && matches!(era, Era::Legacy) { -32002 } else { INVALID_PARAMS };
            assert_eq!(error["code"], code, "{transport} {era:?} {method}: {error}");
            assert_eq!(error["data"]["uri"], uri, "{transport} {era:?} {method}: {error}");
            let message = error["message"].as_str().expect("a message");
            assert!(message.contains(uri), "{transport} {era:?} {method}: the message names {uri}: {error}");
        }
        let error = client.error("no uri", "skills/get", params(era, json!({}))).await;
        assert_eq!(error["code"], INVALID_PARAMS, "{transport} {era:?}: {error}");
        assert!(error["message"].as_str().is_some_and(|message| message.contains("uri")), "{error}");
    }
}

async fn a_server_without_skills_knows_no_skills_method(transport: Transport) {
    for era in ERAS {
        let (mut client, capabilities) = started(transport, era, Server::new(Toolbox::new())).await;
        assert!(capabilities["extensions"].get(EXTENSION).is_none(), "{transport} {era:?}: {capabilities}");
        for method in ["skills/list", "skills/get", "resources/directory/read"] {
            let error = client.error(method, method, params(era, json!({"uri": "skill://a/SKILL.md"}))).await;
            assert_eq!(error["code"], METHOD_NOT_FOUND, "{transport} {era:?} {method}: {error}");
        }
    }
}
