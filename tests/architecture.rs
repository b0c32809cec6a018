//! The import rule of `docs/architecture.md`: a top-level module of `src/`
//! may refer to `crate::X` only when X has a LOWER rank. The rank table is
//! read from the "## Ranks" section of `docs/architecture.md`, the one place
//! it is written. Use statements, paths and doc links (`//!`, `///`) count;
//! plain `//` comments do not. `src/main.rs` and `src/cli*` (the binary) and
//! `src/lib.rs` (the crate root) are not checked.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// Upward edges that are known and are removed by another piece of work, as
/// `(file, module it refers to, the work that removes it)`. Each must still
/// occur (a stale entry fails, so the list only shrinks), and nothing else may.
const ALLOWED: &[(&str, &str, &str)] = &[];

/// `module -> rank` from the "## Ranks" section of docs/architecture.md:
/// a fenced block of lines `<rank> <module> [<module>...]`.
fn ranks() -> BTreeMap<String, u32> {
    let doc =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.md"))
            .expect("docs/architecture.md");
    let section = doc
        .split("\n## Ranks")
        .nth(1)
        .expect("docs/architecture.md has a \"## Ranks\" section");
    let block = section
        .split("```")
        .nth(1)
        .expect("the Ranks section has a fenced block");
    let mut ranks = BTreeMap::new();
    for line in block.lines().skip(1) {
        let mut words = line.split_whitespace();
        let Some(rank) = words.next() else { continue };
        let rank: u32 = rank
            .parse()
            .unwrap_or_else(|_| panic!("rank line {line:?}"));
        for module in words {
            assert!(
                ranks.insert(module.to_string(), rank).is_none(),
                "{module} ranked twice"
            );
        }
    }
    assert!(ranks.len() > 5, "rank table too small: {ranks:?}");
    ranks
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .expect("read src")
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a line with a plain `//` comment cut off; doc comments
/// (`///`, `//!`) are kept whole, since their links resolve like paths.
fn code_of(line: &str) -> &str {
    let trimmed = line.trim_start();
    if trimmed.starts_with("///") || trimmed.starts_with("//!") {
        return line;
    }
    let bytes = line.as_bytes();
    let mut in_str = false;
    let mut i = 0;
    while i + 1 < bytes.len() {
        match bytes[i] {
            b'\\' if in_str => i += 1,
            b'"' => in_str = !in_str,
            b'/' if !in_str && bytes[i + 1] == b'/' => return &line[..i],
            _ => {}
        }
        i += 1;
    }
    line
}

/// Top-level modules named after `crate::` in `text` (one line, or the
/// joined lines of a `crate::{...}` group): `crate::a::b` gives `a`,
/// `crate::{a::x, b}` gives `a` and `b`.
fn targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue; // e.g. `mycrate::`
        }
        if let Some(group) = rest.strip_prefix('{') {
            // top-level items of the group, up to the matching brace
            let mut depth = 0;
            let mut item = String::new();
            let mut items = Vec::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => items.push(std::mem::take(&mut item)),
                    _ => item.push(c),
                }
            }
            items.push(item);
            for item in items {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    out.push(name);
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.push(name);
            }
        }
    }
    out
}

/// The first of `lines` joined with the ones after it up to the line that
/// closes its braces: a group (`use crate::{...}`) may span lines.
fn joined_group(lines: &[&str]) -> String {
    let mut joined = String::new();
    let mut depth = 0i32;
    for next in lines {
        joined.push_str(next);
        joined.push(' ');
        depth += next.matches('{').count() as i32 - next.matches('}').count() as i32;
        if depth <= 0 {
            break;
        }
    }
    joined
}

/// `(line number, target module)` for every `crate::` reference in `source`.
fn references(source: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = source.lines().map(code_of).collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.contains("crate::{") {
            let joined = joined_group(&lines[i..]);
            let start = joined.find("crate::{").unwrap_or(0);
            let head = &joined[..start]; // any plain `crate::x` before the group
            out.extend(targets(head).into_iter().map(|t| (i + 1, t)));
            out.extend(targets(&joined[start..]).into_iter().map(|t| (i + 1, t)));
        } else {
            out.extend(targets(line).into_iter().map(|t| (i + 1, t)));
        }
    }
    out
}

/// `(line number, name)` for every path that climbs to the crate root with
/// `super::` from a file `depth` modules deep (`src/a/b.rs` is 2 deep,
/// `src/a/mod.rs` 1): `super::super::report` in `src/audit/x.rs` names
/// `report`. (A path inside an inline `mod` climbs one level less far; no
/// such path reaches the root today.)
fn super_references(source: &str, depth: usize) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in source.lines().map(code_of).enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("super::") {
            let before = rest[..at].chars().next_back();
            let mut climbs = 0;
            rest = &rest[at..];
            while let Some(r) = rest.strip_prefix("super::") {
                climbs += 1;
                rest = r;
            }
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') || climbs < depth {
                continue;
            }
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.push((i + 1, name));
            }
        }
    }
    out
}

/// How many modules deep a file of `src/` is: `a.rs` and `a/mod.rs` 1,
/// `a/b.rs` 2.
fn depth_of(relative: &Path) -> usize {
    let n = relative.components().count();
    if relative.file_name().is_some_and(|f| f == "mod.rs") {
        n - 1
    } else {
        n
    }
}

/// `name -> module` for the crate root's re-exports (`pub use a::{B, C};`
/// in src/lib.rs), so that `crate::B` counts as a reference to `a`.
fn root_reexports(lib: &str) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    for statement in lib.split(';') {
        let Some(path) = statement.trim().strip_prefix("pub use ") else {
            continue;
        };
        let Some((module, items)) = path.split_once("::") else {
            continue;
        };
        let items = items.trim().trim_start_matches('{').trim_end_matches('}');
        for item in items.split(',') {
            let name = item.trim().rsplit("::").next().unwrap_or("").trim();
            if !name.is_empty() {
                map.insert(name.to_string(), module.trim().to_string());
            }
        }
    }
    map
}

/// The top-level module a file of `src/` belongs to, or None when the file
/// is not checked (crate root, binary).
fn module_of(relative: &Path) -> Option<String> {
    let first = relative.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    match name {
        "lib" | "main" | "cli" => None,
        _ => Some(name.to_string()),
    }
}

/// Every `file:line: from -> to` where `from` refers to a module of equal or
/// higher rank.
fn upward_edges(src: &Path, ranks: &BTreeMap<String, u32>) -> Vec<(String, String, String)> {
    let root = root_reexports(&fs::read_to_string(src.join("lib.rs")).expect("read src/lib.rs"));
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut edges = Vec::new();
    for file in files {
        let relative = file.strip_prefix(src).expect("under src");
        let Some(from) = module_of(relative) else {
            continue;
        };
        let from_rank = *ranks.get(&from).unwrap_or_else(|| {
            panic!(
                "src/{} is in module {from}, which has no rank in docs/architecture.md",
                relative.display()
            )
        });
        let source = fs::read_to_string(&file).expect("read source");
        let climbs = super_references(&source, depth_of(relative))
            .into_iter()
            .filter(|(_, name)| ranks.contains_key(name));
        for (line, to) in references(&source).into_iter().chain(climbs) {
            // `crate::Error` is the crate root's re-export of `error::Error`
            let to = root.get(&to).cloned().unwrap_or(to);
            if to == from {
                continue;
            }
            let to_rank = *ranks.get(&to).unwrap_or_else(|| {
                panic!(
                    "src/{}:{line}: crate::{to} has no rank in docs/architecture.md",
                    relative.display()
                )
            });
            if to_rank >= from_rank {
                edges.push((
                    from.clone(),
                    to,
                    format!("src/{}:{line}", relative.display()),
                ));
            }
        }
    }
    edges
}

#[test]
fn stages_only_import_lower_ranks() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let ranks = ranks();
    let edges = upward_edges(&src, &ranks);
    let mut unexpected = Vec::new();
    // `place` is `src/<file>:<line>`
    let file_of = |place: &str| {
        place
            .rsplit_once(':')
            .map_or(String::new(), |(f, _)| f.to_string())
    };
    let allowed = |place: &str, to: &str| {
        ALLOWED
            .iter()
            .any(|(file, module, _)| file_of(place) == *file && to == *module)
    };
    for (from, to, place) in &edges {
        if !allowed(place, to) {
            unexpected.push(format!(
                "{place}: {from} (rank {}) -> {to} (rank {})",
                ranks[from], ranks[to]
            ));
        }
    }
    let stale: Vec<_> = ALLOWED
        .iter()
        .filter(|(file, module, _)| {
            !edges
                .iter()
                .any(|(_, to, place)| file_of(place) == *file && to == module)
        })
        .map(|(f, t, why)| format!("{f} -> {t} ({why})"))
        .collect();
    assert!(
        unexpected.is_empty() && stale.is_empty(),
        "upward imports (see docs/architecture.md):\n{}\nallow-listed edges that no longer occur:\n{}",
        unexpected.join("\n"),
        stale.join("\n")
    );
}

#[test]
fn the_scanner_finds_paths_groups_and_doc_links_but_not_comments() {
    let source = "use crate::model::Bill;\n\
                  use crate::{\n    audit::Policy,\n    report::{dec, json},\n};\n\
                  // crate::pipeline in a plain comment\n\
                  /// see [`crate::sql`]\n\
                  let x = crate::reprice::run(); // crate::expect\n\
                  use mycrate::ingest;\n";
    let found: Vec<(usize, String)> = references(source);
    let want: Vec<(usize, String)> = [
        (1, "model"),
        (2, "audit"),
        (2, "report"),
        (7, "sql"),
        (8, "reprice"),
    ]
    .into_iter()
    .map(|(l, m)| (l, m.to_string()))
    .collect();
    assert_eq!(found, want);
}

#[test]
fn super_paths_that_climb_to_the_root_are_references_too() {
    let source = "use super::Bill;\nuse super::super::report::dec;\nlet x = super::super::super::sql::run();\n";
    // In src/audit/x.rs (2 deep) two `super::` reach the root.
    assert_eq!(
        super_references(source, 2),
        [(2, "report".to_string()), (3, "sql".to_string())]
    );
    assert_eq!(depth_of(Path::new("audit/x.rs")), 2);
    assert_eq!(depth_of(Path::new("audit/mod.rs")), 1);
    assert_eq!(depth_of(Path::new("expect.rs")), 1);
}

/// The longest a source file of `src/` may be (issue 27): a file past it is
/// split along a real seam, as `classify/rules.rs` and its
/// `rules/services.rs` tier.
const MAX_LINES: usize = 700;

/// Every `src/**/*.rs` over [`MAX_LINES`], with its length.
fn long_files(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files
        .iter()
        .filter_map(|f| {
            let n = fs::read_to_string(f).expect("read source").lines().count();
            (n > MAX_LINES).then(|| format!("{}: {n} lines", f.display()))
        })
        .collect()
}

#[test]
fn no_source_file_is_over_700_lines() {
    let long = long_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    assert!(
        long.is_empty(),
        "files over {MAX_LINES} lines (split them along a seam):\n{}",
        long.join("\n")
    );
}

#[test]
fn the_length_check_counts_lines() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("short.rs"), "fn a() {}\n".repeat(MAX_LINES)).unwrap();
    fs::create_dir(dir.path().join("m")).unwrap();
    fs::write(dir.path().join("m/long.rs"), "\n".repeat(MAX_LINES + 1)).unwrap();
    fs::write(dir.path().join("notes.txt"), "\n".repeat(MAX_LINES + 1)).unwrap();
    let long = long_files(dir.path());
    assert_eq!(long.len(), 1, "{long:?}");
    assert!(long[0].ends_with("long.rs: 701 lines"), "{long:?}");
}

/// Lines of the library (everything in `src/` but the binary's `main.rs`
/// and `cli/`) that name clap: the library's types know nothing of the
/// command line, `src/cli` mirrors them.
fn clap_outside_cli(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut out = Vec::new();
    for file in files {
        let relative = file.strip_prefix(src).expect("under src");
        let first = relative
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str());
        if matches!(first, Some("main.rs" | "cli")) {
            continue;
        }
        let source = fs::read_to_string(&file).expect("read source");
        for (i, line) in source.lines().enumerate() {
            let code = code_of(line);
            let doc = code.trim_start().starts_with("//");
            if !doc && (code.contains("clap::") || code.contains("clap_")) {
                out.push(format!(
                    "src/{}:{}: {}",
                    relative.display(),
                    i + 1,
                    line.trim()
                ));
            }
        }
    }
    out
}

#[test]
fn clap_is_only_in_the_binary() {
    let found = clap_outside_cli(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    assert!(
        found.is_empty(),
        "clap outside src/cli and src/main.rs (mirror the type in src/cli):\n{}",
        found.join("\n")
    );
}

// ---- import cycles between the submodules of one top-level module.

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The paths of a use tree that starts `s`: `a::{b::C, d}` gives `a::b::C`
/// and `a::d`, each as its segments; the tree ends at the first character
/// that cannot continue it.
fn use_tree(s: &str) -> Vec<Vec<String>> {
    let mut prefix = Vec::new();
    let mut rest = s.trim_start();
    loop {
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut item = String::new();
            let mut items = Vec::new();
            for c in group.chars() {
                match c {
                    '{' => {
                        depth += 1;
                        item.push(c);
                    }
                    '}' if depth == 0 => break,
                    '}' => {
                        depth -= 1;
                        item.push(c);
                    }
                    ',' if depth == 0 => items.push(std::mem::take(&mut item)),
                    _ => item.push(c),
                }
            }
            items.push(item);
            return items
                .iter()
                .flat_map(|item| use_tree(item))
                .map(|tail| prefix.iter().cloned().chain(tail).collect())
                .collect();
        }
        if rest.starts_with('*') {
            prefix.push("*".to_string());
            break;
        }
        let ident: String = rest.chars().take_while(|c| is_ident(*c)).collect();
        if ident.is_empty() {
            break;
        }
        rest = &rest[ident.len()..];
        prefix.push(ident);
        match rest.trim_start().strip_prefix("::") {
            Some(r) => rest = r.trim_start(),
            None => break,
        }
    }
    vec![prefix]
}

/// The code of a line without any comment, doc comments included.
fn code_only(line: &str) -> &str {
    let t = line.trim_start();
    if t.starts_with("///") || t.starts_with("//!") {
        ""
    } else {
        code_of(line)
    }
}

/// A rooted path of a file: `(line number, inline modules around it,
/// segments)`. Inside `mod tests { ... }` of `src/a/b.rs`, `super::` is
/// `b`, one `super::` more is `a`.
type RootedPath = (usize, usize, Vec<String>);

/// Every path in the code of `source` that starts with `crate::` or
/// `super::` (a use statement, a path in an expression, a glob
/// `super::*`), groups spanning lines included. Comments are not scanned,
/// doc comments neither: a doc link may point sideways ("see also")
/// without making the two modules depend on each other.
fn rooted_paths(source: &str) -> Vec<RootedPath> {
    let lines: Vec<&str> = source.lines().map(code_only).collect();
    let mut out = Vec::new();
    // Brace depth, and the depths at which the open inline modules began.
    let mut depth = 0i32;
    let mut inline: Vec<i32> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let inside = inline.len();
        let words: Vec<&str> = line.split_whitespace().collect();
        let opens_mod = words.iter().position(|w| *w == "mod").is_some_and(|m| {
            words[..m].iter().all(|w| w.starts_with("pub"))
                && words.get(m + 2).is_some_and(|w| w.starts_with('{'))
        });
        if opens_mod {
            inline.push(depth);
        }
        depth += line.matches('{').count() as i32 - line.matches('}').count() as i32;
        while inline.last().is_some_and(|d| depth <= *d) {
            inline.pop();
        }
        if !line.contains("crate::") && !line.contains("super::") {
            continue;
        }
        let joined = joined_group(&lines[i..]);
        for start in ["crate::", "super::"] {
            for (at, _) in line.match_indices(start) {
                let before = line[..at].chars().next_back();
                if before.is_some_and(|c| is_ident(c) || c == ':') {
                    continue; // `mycrate::`, or the second `super::` of a path
                }
                out.extend(
                    use_tree(&joined[at..])
                        .into_iter()
                        .map(|p| (i + 1, inside, p)),
                );
            }
        }
    }
    out
}

/// `name -> submodule` for the `use` statements of a module's `mod.rs`
/// (`pub use csv_run::audit_csv;`), so that `super::audit_csv` in a
/// submodule counts as a reference to `csv_run`.
fn module_reexports(mod_rs: &str, nodes: &[String]) -> BTreeMap<String, String> {
    let code: String = mod_rs.lines().map(code_of).collect::<Vec<_>>().join("\n");
    let mut map = BTreeMap::new();
    for statement in code.split(';') {
        let Some(at) = statement.find("use ") else {
            continue;
        };
        let head = statement[..at].trim();
        if !(head.is_empty() || head.ends_with("pub") || head.ends_with(')')) {
            continue;
        }
        for path in use_tree(&statement[at + 4..]) {
            let path: Vec<&String> = path.iter().skip_while(|s| *s == "self").collect();
            if let (Some(first), Some(last)) = (path.first(), path.last())
                && path.len() > 1
                && nodes.contains(first)
            {
                map.insert((*last).clone(), (*first).clone());
            }
        }
    }
    map
}

/// Whether `word` occurs in `code` as a whole identifier.
fn uses_word(code: &str, word: &str) -> bool {
    code.match_indices(word).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

/// The submodules of `src/<top>/` (files and folders, `mod.rs` excluded)
/// and, for each, `(submodule it refers to, src/<file>:<line>)`.
type ModuleGraph = BTreeMap<String, Vec<(String, String)>>;

fn submodule_graph(src: &Path, top: &str) -> ModuleGraph {
    let dir = src.join(top);
    let mut nodes: Vec<String> = fs::read_dir(&dir)
        .expect("read module dir")
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_str()?.to_string();
            if e.path().is_dir() {
                Some(name)
            } else {
                name.strip_suffix(".rs")
                    .filter(|n| *n != "mod")
                    .map(str::to_string)
            }
        })
        .collect();
    nodes.sort();
    nodes.dedup();
    let reexports = fs::read_to_string(dir.join("mod.rs"))
        .map(|m| module_reexports(&m, &nodes))
        .unwrap_or_default();
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    let mut graph: ModuleGraph = nodes.iter().map(|n| (n.clone(), Vec::new())).collect();
    for file in files {
        let relative = file.strip_prefix(src).expect("under src");
        let inner = file.strip_prefix(&dir).expect("under the module");
        let Some(node) = inner
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .map(|n| n.strip_suffix(".rs").unwrap_or(n).to_string())
            .filter(|n| n != "mod")
        else {
            continue;
        };
        // `super::` this many times names the module `top`.
        let up = depth_of(relative) - 1;
        let source = fs::read_to_string(&file).expect("read source");
        let code: String = source.lines().map(code_only).collect::<Vec<_>>().join("\n");
        for (line, inside, path) in rooted_paths(&source) {
            let name = if path.first().is_some_and(|s| s == "crate") {
                (path.get(1).is_some_and(|s| s == top))
                    .then(|| path.get(2))
                    .flatten()
            } else {
                let climbs = path.iter().take_while(|s| *s == "super").count();
                (climbs == up + inside).then(|| path.get(climbs)).flatten()
            };
            let Some(name) = name else { continue };
            // A glob of the module (`use super::*;`) reaches the submodules
            // whose re-exported names the file's code uses.
            let targets: Vec<String> = if name == "*" {
                reexports
                    .iter()
                    .filter(|(name, _)| uses_word(&code, name))
                    .map(|(_, m)| m.clone())
                    .collect()
            } else if nodes.contains(name) {
                vec![name.clone()]
            } else if let Some(m) = reexports.get(name) {
                vec![m.clone()]
            } else {
                continue;
            };
            let place = format!("src/{}:{line}", relative.display());
            for to in targets {
                let edges = graph.get_mut(&node).expect("a node");
                if to != node && !edges.iter().any(|(t, p)| *t == to && *p == place) {
                    edges.push((to, place.clone()));
                }
            }
        }
    }
    graph
}

/// Each import cycle of the graph, once, as the submodules on it with the
/// place of every edge: `a -> b (src/x/a.rs:3) -> a (src/x/b.rs:9)`.
fn cycles(graph: &ModuleGraph) -> Vec<String> {
    // Tarjan's strongly connected components would do; the graphs are a
    // few dozen nodes, so: the nodes that reach themselves, grouped.
    let reach = |from: &str| {
        let mut seen: Vec<String> = Vec::new();
        let mut stack = vec![from.to_string()];
        while let Some(n) = stack.pop() {
            for (to, _) in &graph[&n] {
                if !seen.contains(to) {
                    seen.push(to.clone());
                    stack.push(to.clone());
                }
            }
        }
        seen
    };
    let mut done: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for start in graph.keys() {
        if done.contains(start) || !reach(start).contains(start) {
            continue;
        }
        // one shortest cycle through `start`, by breadth-first search
        let mut prev: BTreeMap<String, (String, String)> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([start.clone()]);
        'search: while let Some(n) = queue.pop_front() {
            for (to, place) in &graph[&n] {
                if to == start {
                    prev.insert(format!("{start}#end"), (n.clone(), place.clone()));
                    break 'search;
                }
                if !prev.contains_key(to) {
                    prev.insert(to.clone(), (n.clone(), place.clone()));
                    queue.push_back(to.clone());
                }
            }
        }
        let mut steps = Vec::new();
        let mut at = format!("{start}#end");
        while let Some((from, place)) = prev.get(&at) {
            steps.push((at.trim_end_matches("#end").to_string(), place.clone()));
            if from == start {
                break;
            }
            at = from.clone();
        }
        steps.reverse();
        let mut text = start.clone();
        for (to, place) in &steps {
            text.push_str(&format!(" -> {to} ({place})"));
        }
        // every node of the cycle's component is reported by this one
        let component: Vec<String> = graph
            .keys()
            .filter(|k| reach(start).contains(k) && reach(k).contains(start))
            .cloned()
            .collect();
        if component.len() > steps.len() {
            text.push_str(&format!(" [all in one cycle: {}]", component.join(", ")));
        }
        done.extend(component);
        out.push(text);
    }
    out
}

#[test]
fn no_import_cycle_inside_a_top_level_module() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    let mut tops: Vec<PathBuf> = fs::read_dir(&src)
        .expect("read src")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    tops.sort();
    for dir in tops {
        let top = dir.file_name().and_then(|n| n.to_str()).expect("a name");
        found.extend(
            cycles(&submodule_graph(&src, top))
                .into_iter()
                .map(|c| format!("{top}: {c}")),
        );
    }
    assert!(
        found.is_empty(),
        "import cycles between submodules (move the shared piece down into a module both use):\n{}",
        found.join("\n")
    );
}

#[test]
fn use_trees_paths_and_cycles_are_found() {
    assert_eq!(
        use_tree("crate::audit::{idle::{A, B}, sink::Sink};"),
        [
            ["crate", "audit", "idle", "A"],
            ["crate", "audit", "idle", "B"],
            ["crate", "audit", "sink", "Sink"],
        ]
        .map(|p| p.map(String::from).to_vec())
    );
    let source = "use super::{a::X,\n    b};\n// super::c in a comment\nlet y = super::super::d::f();\n/// [`crate::m::e`]\nuse crate::m::g;\n";
    let found: Vec<(usize, String)> = rooted_paths(source)
        .into_iter()
        .map(|(l, _, p)| (l, p.join("::")))
        .collect();
    assert_eq!(
        found,
        [
            (1, "super::a::X"),
            (1, "super::b"),
            (4, "super::super::d::f"),
            (6, "crate::m::g"),
        ]
        .map(|(l, p)| (l, p.to_string()))
    );
    // Inside an inline module, `super::` climbs one level less far.
    let source = "use super::*;\nfn f() {}\n#[cfg(test)]\nmod tests {\n    use super::*;\n    fn g() {\n        super::h();\n    }\n}\nuse super::k;\n";
    let found: Vec<(usize, usize, String)> = rooted_paths(source)
        .into_iter()
        .map(|(l, inside, p)| (l, inside, p.join("::")))
        .collect();
    assert_eq!(
        found,
        [
            (1, 0, "super::*"),
            (5, 1, "super::*"),
            (7, 1, "super::h"),
            (10, 0, "super::k"),
        ]
        .map(|(l, i, p)| (l, i, p.to_string()))
    );
    assert!(uses_word("let p = Partial::new();", "Partial"));
    assert!(!uses_word("let p = PartialSum::new();", "Partial"));
    let nodes = ["run", "pool"].map(String::from).to_vec();
    let re = module_reexports(
        "pub use run::{go, Stop};\nuse pool::Pool;\npub mod run;\n",
        &nodes,
    );
    assert_eq!(re.get("go").map(String::as_str), Some("run"));
    assert_eq!(re.get("Pool").map(String::as_str), Some("pool"));
    let edge = |a: &str, b: &str| (a.to_string(), (b.to_string(), format!("{a}.rs:1")));
    let mut graph: ModuleGraph = BTreeMap::new();
    for (a, (b, place)) in [
        edge("a", "b"),
        edge("b", "c"),
        edge("c", "a"),
        edge("c", "d"),
    ] {
        graph.entry(b.clone()).or_default();
        graph.entry(a).or_default().push((b, place));
    }
    graph.entry("d".into()).or_default();
    assert_eq!(
        cycles(&graph),
        ["a -> b (a.rs:1) -> c (b.rs:1) -> a (c.rs:1)"]
    );
    graph.get_mut("c").unwrap().retain(|(to, _)| to != "a");
    assert!(cycles(&graph).is_empty());
}
