//! Locales: BCP 47 canonicalization (ICU4X, UTS #35), and ECMA-402's
//! ResolveLocale with the lookup matcher over the locales each Intl
//! constructor has in Node (recorded from Node by the data generator).

use super::data;
use icu_locale::LocaleCanonicalizer;
use icu_locale_core::Locale;
use std::collections::BTreeMap;

pub const DEFAULT_LOCALE: &str = "en-US";

/// The Intl constructors, in the order of the generator's `services` bits.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Service {
    DateTimeFormat = 0,
    NumberFormat = 1,
    Collator = 2,
    PluralRules = 3,
    RelativeTimeFormat = 4,
    ListFormat = 5,
    Segmenter = 6,
    DisplayNames = 7,
}

impl Service {
    pub fn from_name(name: &str) -> Option<Service> {
        Some(match name {
            "DateTimeFormat" => Service::DateTimeFormat,
            "NumberFormat" => Service::NumberFormat,
            "Collator" => Service::Collator,
            "PluralRules" => Service::PluralRules,
            "RelativeTimeFormat" => Service::RelativeTimeFormat,
            "ListFormat" => Service::ListFormat,
            "Segmenter" => Service::Segmenter,
            "DisplayNames" => Service::DisplayNames,
            _ => return None,
        })
    }
}

thread_local! {
    // ICU4X objects are not Sync; the engine runs one thread.
    static CANONICALIZER: LocaleCanonicalizer = const { LocaleCanonicalizer::new_extended() };
    static EXPANDER: icu_locale::LocaleExpander = const { icu_locale::LocaleExpander::new_extended() };
}

/// `CanonicalizeUnicodeLocaleId`: a structurally valid tag, canonicalized;
/// `None` when the tag is not a valid language tag.
pub fn canonicalize(tag: &str) -> Option<String> {
    if tag.is_empty() || tag.len() > 255 || !tag.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
        return None;
    }
    let mut locale = Locale::try_from_str(tag).ok()?;
    // ECMA-402 does not accept the legacy "root" or a bare private use tag.
    if locale.id.language.as_str() == "root" {
        return None;
    }
    CANONICALIZER.with(|c| c.canonicalize(&mut locale));
    Some(locale.to_string())
}

fn available_bits(tag: &str) -> u32 {
    data::meta("available")
        .and_then(|t| t.get(tag))
        .and_then(|r| r.int())
        .map(|b| b as u32)
        .unwrap_or(0)
}

pub fn is_available(service: Service, tag: &str) -> bool {
    available_bits(tag) & (1 << service as u32) != 0
}

/// BestAvailableLocale: the longest available prefix of `tag`.
pub fn best_available(service: Service, tag: &str) -> Option<String> {
    let mut candidate = tag.to_string();
    loop {
        if is_available(service, &candidate) {
            return Some(candidate);
        }
        let mut pos = candidate.rfind('-')?;
        if pos >= 2 && candidate.as_bytes()[pos - 2] == b'-' {
            pos -= 2;
        }
        candidate.truncate(pos);
    }
}

/// A canonical tag split into its base (no extensions) and its `-u-` keywords.
pub struct Split {
    pub base: String,
    pub keywords: Vec<(String, String)>,
}

pub fn split(tag: &str) -> Split {
    let Ok(locale) = Locale::try_from_str(tag) else {
        return Split {
            base: tag.to_string(),
            keywords: Vec::new(),
        };
    };
    let base = locale.id.to_string();
    let keywords = locale
        .extensions
        .unicode
        .keywords
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Split { base, keywords }
}

/// The result of ResolveLocale.
pub struct Resolved {
    /// The available locale found (no extensions), e.g. `de-AT`.
    pub data_locale: String,
    /// Relevant keywords that were taken from the requested tag, validated.
    pub keywords: BTreeMap<String, String>,
}

/// Checks a `-u-` keyword value for a service the way V8 does.
pub type KeywordCheck = fn(key: &str, value: &str, data_locale: &str) -> bool;

/// ECMA-402 ResolveLocale with the lookup matcher (what V8 uses).
pub fn resolve(service: Service, requested: &[String], relevant: &[&str], check: KeywordCheck) -> Resolved {
    for tag in requested {
        let s = split(tag);
        if let Some(found) = best_available(service, &s.base) {
            let mut keywords = BTreeMap::new();
            for (key, value) in &s.keywords {
                if relevant.contains(&key.as_str()) && check(key, value, &found) {
                    keywords.insert(key.clone(), value.clone());
                }
            }
            return Resolved {
                data_locale: found,
                keywords,
            };
        }
    }
    Resolved {
        data_locale: DEFAULT_LOCALE.to_string(),
        keywords: BTreeMap::new(),
    }
}

/// The locale string with the given `-u-` keywords (values "" or "true" print bare).
pub fn with_keywords(base: &str, keywords: &BTreeMap<String, String>) -> String {
    if keywords.is_empty() {
        return base.to_string();
    }
    let mut out = format!("{base}-u");
    for (k, v) in keywords {
        out.push('-');
        out.push_str(k);
        if !v.is_empty() && v != "true" {
            out.push('-');
            out.push_str(v);
        }
    }
    out
}

/// ICU's locale ID for a BCP 47 base tag (`zh-Hant-TW` → `zh_Hant_TW`).
pub fn icu_id(tag: &str) -> String {
    tag.replace('-', "_")
}

/// The parts of a base tag.
pub struct Subtags {
    pub language: String,
    pub region: String,
}

pub fn subtags(tag: &str) -> Subtags {
    let Ok(locale) = Locale::try_from_str(tag) else {
        return Subtags {
            language: tag.to_string(),
            region: String::new(),
        };
    };
    Subtags {
        language: locale.id.language.to_string(),
        region: locale.id.region.map(|r| r.to_string()).unwrap_or_default(),
    }
}

/// Likely subtags (`addLikelySubtags`), from ICU4X's CLDR data.
pub fn maximize(tag: &str) -> Subtags {
    let Ok(mut locale) = Locale::try_from_str(tag) else {
        return subtags(tag);
    };
    EXPANDER.with(|e| e.maximize(&mut locale.id));
    Subtags {
        language: locale.id.language.to_string(),
        region: locale.id.region.map(|r| r.to_string()).unwrap_or_default(),
    }
}

/// Adds likely subtags in place (`Intl.Locale.prototype.maximize`).
pub fn maximize_id(id: &mut icu_locale_core::LanguageIdentifier) {
    EXPANDER.with(|e| e.maximize(id));
}

/// Removes likely subtags in place, favouring the region as ICU does.
pub fn minimize_id(id: &mut icu_locale_core::LanguageIdentifier) {
    EXPANDER.with(|e| e.minimize(id));
}
