//! Locale facts the JavaScript side asks for by name: which collations a
//! locale has (recorded from Node), and likely subtags for `Intl.Locale`.

use super::{data, locale};
use icu_locale_core::Locale;

/// Whether `Intl.Collator` in Node honours `-u-co-<collation>` for the
/// locale (or the nearest locale that has collation data).
pub fn collation_supported(locale_tag: &str, collation: &str) -> bool {
    collations(locale_tag).contains(&collation)
}

/// The collations Node accepts for a locale, from the generator's probe.
pub fn collations(locale_tag: &str) -> Vec<&'static str> {
    let Some(table) = data::meta("collations") else {
        return Vec::new();
    };
    let mut tag = locale_tag.to_string();
    loop {
        if let Some(list) = table.get(&tag) {
            return list.strings();
        }
        match tag.rfind('-') {
            Some(i) => tag.truncate(i),
            None => return Vec::new(),
        }
    }
}

/// `Intl.Locale.prototype.maximize`/`minimize` on a canonical tag: the tag
/// with its language, script and region replaced (extensions kept).
pub fn locale_op(op: &str, tag: &str) -> Option<String> {
    let mut l = Locale::try_from_str(tag).ok()?;
    match op {
        "maximize" => locale::maximize_id(&mut l.id),
        "minimize" => locale::minimize_id(&mut l.id),
        _ => return None,
    }
    Some(l.to_string())
}

/// A region's name (`Countries/XX`), as LocaleDisplayNames gives it.
pub fn region_name(locale_id: &str, region: &str) -> Option<String> {
    data::lookup_str("region", locale_id, &format!("Countries/{region}"))
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}
