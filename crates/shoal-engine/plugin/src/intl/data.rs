//! Reader for Shoal's compiled ICU data (`data/icu.bin`, made by
//! `data/gen.mjs` from the ICU data inside Node.js): resource bundles as ICU
//! has them (tables, arrays, strings, integers, `/LOCALE/` aliases), with
//! ICU's locale fallback (`%%Parent`, truncation, root) and `%%ALIAS`.
//!
//! The blob is `include_bytes!`d, so it sits in the engine's read-only data:
//! every sandbox maps the same pages, and nothing is parsed up front.

use std::cmp::Ordering;

static BLOB: &[u8] = include_bytes!("data/icu.bin");

const TAG_STRING: u32 = 0;
const TAG_TABLE: u32 = 1;
const TAG_ARRAY: u32 = 2;
const TAG_INT: u32 = 3;
const TAG_INTV: u32 = 4;
const TAG_ALIAS: u32 = 5;

#[derive(Clone, Copy)]
struct Blob {
    bytes: &'static [u8],
    strings: usize,
    keys: usize,
    key_count: usize,
    words: usize,
    root: u32,
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    bytes
        .get(at..at + 4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .unwrap_or(0)
}

fn blob() -> Blob {
    let bytes = BLOB;
    assert!(bytes.len() >= 32 && &bytes[0..4] == b"SHIC", "corrupt Intl data");
    Blob {
        bytes,
        strings: u32_at(bytes, 8) as usize,
        keys: u32_at(bytes, 16) as usize,
        key_count: u32_at(bytes, 20) as usize,
        words: u32_at(bytes, 24) as usize,
        root: u32_at(bytes, 28),
    }
}

impl Blob {
    fn word(&self, index: usize) -> u32 {
        u32_at(self.bytes, self.words + index * 4)
    }

    fn string(&self, offset: usize) -> &'static str {
        let bytes = self.bytes;
        let mut at = self.strings + offset;
        let mut len = 0usize;
        let mut shift = 0;
        while let Some(&b) = bytes.get(at) {
            at += 1;
            len |= usize::from(b & 0x7f) << shift;
            shift += 7;
            if b < 0x80 {
                break;
            }
        }
        bytes
            .get(at..at + len)
            .and_then(|s| std::str::from_utf8(s).ok())
            .unwrap_or("")
    }

    fn key(&self, index: usize) -> &'static str {
        self.string(u32_at(self.bytes, self.keys + index * 4) as usize)
    }

    /// The index of `key` in the sorted key table.
    fn key_index(&self, key: &str) -> Option<u16> {
        let (mut lo, mut hi) = (0usize, self.key_count);
        while lo < hi {
            let mid = (lo + hi) / 2;
            match self.key(mid).as_bytes().cmp(key.as_bytes()) {
                Ordering::Less => lo = mid + 1,
                Ordering::Greater => hi = mid,
                Ordering::Equal => return u16::try_from(mid).ok(),
            }
        }
        None
    }
}

/// One value in a resource bundle.
#[derive(Clone, Copy)]
pub struct Res {
    r: u32,
}

/// What a resource is.
pub enum Value {
    Str(&'static str),
    Alias(&'static str),
    Int(i32),
    Table,
    Array,
    IntVector,
}

impl Res {
    fn tag(self) -> u32 {
        self.r >> 29
    }
    fn payload(self) -> usize {
        (self.r & 0x1fff_ffff) as usize
    }

    pub fn value(self) -> Value {
        let b = blob();
        match self.tag() {
            TAG_STRING => Value::Str(b.string(self.payload())),
            TAG_ALIAS => Value::Alias(b.string(self.payload())),
            TAG_INT => Value::Int(((self.r << 3) as i32) >> 3),
            TAG_TABLE => Value::Table,
            TAG_ARRAY => Value::Array,
            _ => Value::IntVector,
        }
    }

    pub fn str(self) -> Option<&'static str> {
        match self.value() {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn int(self) -> Option<i32> {
        match self.value() {
            Value::Int(i) => Some(i),
            _ => None,
        }
    }

    pub fn alias(self) -> Option<&'static str> {
        match self.value() {
            Value::Alias(s) => Some(s),
            _ => None,
        }
    }

    pub fn is_table(self) -> bool {
        self.tag() == TAG_TABLE
    }

    /// Number of entries of a table or array (0 otherwise).
    pub fn len(self) -> usize {
        match self.tag() {
            TAG_TABLE | TAG_ARRAY | TAG_INTV => blob().word(self.payload()) as usize,
            _ => 0,
        }
    }

    /// The `i`th (key, value) of a table, in key order; for an array the key is "".
    pub fn entry(self, i: usize) -> Option<(&'static str, Res)> {
        let b = blob();
        let at = self.payload();
        let n = self.len();
        if i >= n {
            return None;
        }
        match self.tag() {
            TAG_TABLE => {
                let pair = b.word(at + 1 + i / 2);
                let key = if i.is_multiple_of(2) { pair & 0xffff } else { pair >> 16 };
                let value = b.word(at + 1 + n.div_ceil(2) + i);
                Some((b.key(key as usize), Res { r: value }))
            }
            TAG_ARRAY => Some(("", Res { r: b.word(at + 1 + i) })),
            _ => None,
        }
    }

    pub fn index(self, i: usize) -> Option<Res> {
        self.entry(i).map(|(_, r)| r)
    }

    pub fn int_vector(self) -> Vec<i32> {
        if self.tag() != TAG_INTV {
            return Vec::new();
        }
        let b = blob();
        (0..self.len()).map(|i| b.word(self.payload() + 1 + i) as i32).collect()
    }

    /// A table's entry by key (binary search on key indexes).
    pub fn get(self, key: &str) -> Option<Res> {
        if self.tag() != TAG_TABLE {
            return None;
        }
        let b = blob();
        let wanted = b.key_index(key)?;
        let at = self.payload();
        let n = self.len();
        let key_at = |i: usize| {
            let pair = b.word(at + 1 + i / 2);
            (if i.is_multiple_of(2) { pair & 0xffff } else { pair >> 16 }) as u16
        };
        let (mut lo, mut hi) = (0usize, n);
        while lo < hi {
            let mid = (lo + hi) / 2;
            match key_at(mid).cmp(&wanted) {
                Ordering::Less => lo = mid + 1,
                Ordering::Greater => hi = mid,
                Ordering::Equal => {
                    return Some(Res {
                        r: b.word(at + 1 + n.div_ceil(2) + mid),
                    });
                }
            }
        }
        None
    }

    /// Follows `a/b/c` without fallback or aliases.
    pub fn path(self, path: &str) -> Option<Res> {
        path.split('/')
            .filter(|p| !p.is_empty())
            .try_fold(self, |r, p| r.get(p))
    }

    pub fn entries(self) -> impl Iterator<Item = (&'static str, Res)> {
        (0..self.len()).filter_map(move |i| self.entry(i))
    }

    pub fn strings(self) -> Vec<&'static str> {
        self.entries().filter_map(|(_, r)| r.str()).collect()
    }
}

fn root() -> Res {
    Res { r: blob().root }
}

/// Shoal's own tables (`shoal/...` in the blob: time zone names, the locales
/// each constructor has, supported values).
pub fn meta(path: &str) -> Option<Res> {
    root().get("shoal")?.path(path)
}

/// A bundle by name: `en_GB`, `zone/de`, `supplementalData`.
pub fn bundle(name: &str) -> Option<Res> {
    root().get("bundles")?.get(name)
}

/// The directory of a bundle tree: "" (main), "zone", "lang", "region", "curr", "unit".
fn bundle_name(tree: &str, locale: &str) -> String {
    if tree.is_empty() {
        locale.to_string()
    } else {
        format!("{tree}/{locale}")
    }
}

/// ICU's parent of a bundle: `%%Parent`, else the name without its last
/// subtag, else root.
fn parent(tree: &str, locale: &str) -> Option<String> {
    if locale == "root" {
        return None;
    }
    if let Some(p) = bundle(&bundle_name(tree, locale))
        .and_then(|b| b.get("%%Parent"))
        .and_then(Res::str)
    {
        return Some(p.to_string());
    }
    match locale.rfind('_') {
        Some(i) => Some(locale[..i].to_string()),
        None => Some("root".to_string()),
    }
}

/// The bundles ICU consults for `locale` in `tree`, most specific first:
/// starts at the longest existing prefix (after `%%ALIAS`), ends at root.
pub fn chain(tree: &str, locale: &str) -> Vec<(String, Res)> {
    let mut out = Vec::new();
    let mut current = Some(locale.to_string());
    let mut guard = 0;
    while let Some(name) = current {
        guard += 1;
        if guard > 16 {
            break;
        }
        match bundle(&bundle_name(tree, &name)) {
            Some(b) => {
                if let Some(alias) = b.get("%%ALIAS").and_then(Res::str) {
                    current = Some(alias.to_string());
                    continue;
                }
                out.push((name.clone(), b));
                current = parent(tree, &name);
            }
            None => {
                current = match name.rfind('_') {
                    Some(i) => Some(name[..i].to_string()),
                    None if name != "root" => Some("root".to_string()),
                    None => None,
                };
            }
        }
    }
    out
}

/// The locale (bundle name) ICU would report as "actual" for `locale`.
pub fn actual_locale(tree: &str, locale: &str) -> String {
    chain(tree, locale)
        .first()
        .map(|(n, _)| n.clone())
        .unwrap_or_else(|| "root".into())
}

/// Walks `path` from `start`, resolving `/LOCALE/...` aliases met on the way
/// against `locale` (as ICU does), with fallback.
fn walk(tree: &str, locale: &str, start: Res, path: &[&str], depth: u32) -> Option<Res> {
    let mut node = start;
    for (i, part) in path.iter().enumerate() {
        if let Some(target) = node.alias() {
            return resolve_alias(tree, locale, target, &path[i..], depth);
        }
        node = node.get(part)?;
    }
    match node.alias() {
        Some(target) => resolve_alias(tree, locale, target, &[], depth),
        None => Some(node),
    }
}

fn resolve_alias(tree: &str, locale: &str, target: &str, rest: &[&str], depth: u32) -> Option<Res> {
    if depth > 8 {
        return None;
    }
    let inner = target.strip_prefix("/LOCALE/")?;
    let mut full: Vec<&str> = inner.split('/').filter(|p| !p.is_empty()).collect();
    full.extend_from_slice(rest);
    lookup_parts(tree, locale, &full, depth + 1)
}

fn lookup_parts(tree: &str, locale: &str, parts: &[&str], depth: u32) -> Option<Res> {
    for (_, b) in chain(tree, locale) {
        if let Some(found) = walk(tree, locale, b, parts, depth) {
            return Some(found);
        }
    }
    None
}

/// `ures_getByKeyWithFallback` over a whole path: the first bundle in the
/// chain that has it wins.
pub fn lookup(tree: &str, locale: &str, path: &str) -> Option<Res> {
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    lookup_parts(tree, locale, &parts, 0)
}

pub fn lookup_str(tree: &str, locale: &str, path: &str) -> Option<&'static str> {
    lookup(tree, locale, path).and_then(Res::str)
}

/// `ures_getAllChildrenWithFallback`: calls `sink` with every table found at
/// `path` along the chain, most specific first (the sink keeps first values).
pub fn each_table_with_fallback(tree: &str, locale: &str, path: &str, sink: &mut dyn FnMut(Res)) {
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    each_table(tree, locale, &parts, sink, 0);
}

fn each_table(tree: &str, locale: &str, parts: &[&str], sink: &mut dyn FnMut(Res), depth: u32) {
    if depth > 8 {
        return;
    }
    for (_, b) in chain(tree, locale) {
        // Walk manually so an alias part-way switches to the alias's path.
        let mut node = b;
        let mut ok = true;
        for (i, part) in parts.iter().enumerate() {
            if let Some(target) = node.alias() {
                if let Some(inner) = target.strip_prefix("/LOCALE/") {
                    let mut full: Vec<&str> = inner.split('/').filter(|p| !p.is_empty()).collect();
                    full.extend_from_slice(&parts[i..]);
                    each_table(tree, locale, &full, sink, depth + 1);
                }
                return;
            }
            match node.get(part) {
                Some(n) => node = n,
                None => {
                    ok = false;
                    break;
                }
            }
        }
        if !ok {
            continue;
        }
        if let Some(target) = node.alias() {
            if let Some(inner) = target.strip_prefix("/LOCALE/") {
                let full: Vec<&str> = inner.split('/').filter(|p| !p.is_empty()).collect();
                each_table(tree, locale, &full, sink, depth + 1);
            }
            return;
        }
        sink(node);
    }
}
