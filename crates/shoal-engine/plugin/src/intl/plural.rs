//! Plural rules (ICU4X), keyed by the data locale.

use icu_locale_core::Locale;
use icu_plurals::{PluralCategory, PluralOperands, PluralRules};
use std::cell::RefCell;
use std::collections::HashMap;
use std::str::FromStr;

thread_local! {
    static RULES: RefCell<HashMap<(String, bool), std::rc::Rc<PluralRules>>> = RefCell::new(HashMap::new());
}

pub fn category_name(c: PluralCategory) -> &'static str {
    match c {
        PluralCategory::Zero => "zero",
        PluralCategory::One => "one",
        PluralCategory::Two => "two",
        PluralCategory::Few => "few",
        PluralCategory::Many => "many",
        _ => "other",
    }
}

/// The rules for a locale (cardinal or ordinal), cached per sandbox.
pub fn rules(locale: &str, ordinal: bool) -> std::rc::Rc<PluralRules> {
    let key = (locale.to_string(), ordinal);
    if let Some(r) = RULES.with(|m| m.borrow().get(&key).cloned()) {
        return r;
    }
    let loc = Locale::from_str(&locale.replace('_', "-")).unwrap_or(Locale::UNKNOWN);
    let made = if ordinal {
        PluralRules::try_new_ordinal(loc.into())
    } else {
        PluralRules::try_new_cardinal(loc.into())
    };
    let made = match made {
        Ok(r) => r,
        Err(_) => unreachable_rules(),
    };
    let rc = std::rc::Rc::new(made);
    RULES.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() > 32 {
            m.clear();
        }
        m.insert(key, rc.clone());
    });
    rc
}

fn unreachable_rules() -> PluralRules {
    // Root rules always load from compiled data.
    PluralRules::try_new_cardinal(Locale::UNKNOWN.into()).expect("compiled plural data has root")
}

/// ICU's integer operand keeps only the last 18 digits of a huge number
/// (its `toLong(truncateIfOverflow)`); the rules then see that.
fn truncate_integer(plain: &str) -> String {
    let (sign, rest) = match plain.strip_prefix('-') {
        Some(r) => ("-", r),
        None => ("", plain),
    };
    let (int, frac) = rest.split_once('.').unwrap_or((rest, ""));
    if int.len() <= 18 {
        return plain.to_string();
    }
    let tail = &int[int.len() - 18..];
    let tail = tail.trim_start_matches('0');
    let tail = if tail.is_empty() { "0" } else { tail };
    if frac.is_empty() {
        format!("{sign}{tail}")
    } else {
        format!("{sign}{tail}.{frac}")
    }
}

/// Operands of a formatted plain decimal ("1.50"); `exponent` is the
/// scientific exponent ICU gives the `e` operand (rules only ever test
/// e = 0 or e in 0..5, so a negative exponent behaves like 6).
pub fn operands(plain: &str, exponent: i32) -> PluralOperands {
    let plain = truncate_integer(plain);
    if exponent != 0 {
        let e: u8 = if exponent > 0 { exponent.min(60) as u8 } else { 6 };
        if let Ok(full) = fixed_decimal::Decimal::from_str(&plain) {
            let mut significand = full;
            significand.multiply_pow10(-i16::from(e));
            let c = fixed_decimal::CompactDecimal::from_significand_and_exponent(significand, e);
            return PluralOperands::from(&c);
        }
    }
    match fixed_decimal::Decimal::from_str(&plain) {
        Ok(d) => PluralOperands::from(&d),
        Err(_) => PluralOperands::from(0u32),
    }
}

pub fn select(locale: &str, ordinal: bool, plain: &str, exponent: i32) -> &'static str {
    let r = rules(locale, ordinal);
    let category = category_name(r.category_for(operands(plain, exponent)));
    // ICU truncates only the integer operand; a rule on n (ar's "zero") still sees the value.
    if category == "zero" && truncate_integer(plain) != plain {
        let exact = fixed_decimal::Decimal::from_str(plain).map(|d| category_name(r.category_for(&d)));
        return exact.unwrap_or(category);
    }
    category
}

/// The plural form ICU picks for a number shown with an exponent (scientific
/// or compact): ICU evaluates the rules in its table's key order, so the
/// e-based "many" (fr, es, it, pt, ca: "e != 0..5") wins over "one" when the
/// exponent is outside 0..5.
pub fn select_with_exponent(locale: &str, full: &str, mantissa: &str, exponent: i32) -> &'static str {
    if exponent == 0 {
        return select(locale, false, mantissa, 0);
    }
    let r = rules(locale, false);
    if !(0..=5).contains(&exponent) {
        let probe = fixed_decimal::CompactDecimal::from_str("1c6").map(|c| r.category_for(&c));
        if probe == Ok(PluralCategory::Many) {
            return "many";
        }
    }
    if exponent > 0
        && let Ok(m) = fixed_decimal::Decimal::from_str(mantissa)
    {
        let c = fixed_decimal::CompactDecimal::from_significand_and_exponent(m, exponent.min(60) as u8);
        return category_name(r.category_for(&c));
    }
    select(locale, false, full, 0)
}

pub fn select_range(locale: &str, ordinal: bool, start: &str, end: &str) -> &'static str {
    let first = select(locale, ordinal, start, 0);
    let second = select(locale, ordinal, end, 0);
    resolve_range(locale, first, second)
}

/// The plural form of a range whose ends have the given forms: CLDR's
/// plural ranges for the language as ICU reads them, "other" where the
/// data has no entry (ICU's default; ICU4X would take the end's form).
pub fn resolve_range(locale: &str, start: &str, end: &str) -> &'static str {
    let language = locale.split(['_', '-']).next().unwrap_or(locale);
    let Some(ranges) = super::data::bundle("pluralRanges") else {
        return "other";
    };
    let Some(set) = ranges
        .get("locales")
        .and_then(|l| l.get(language))
        .and_then(super::data::Res::str)
    else {
        return "other";
    };
    let Some(rules) = ranges.get("rules").and_then(|r| r.get(set)) else {
        return "other";
    };
    for i in 0..rules.len() {
        let Some(triple) = rules.index(i) else {
            continue;
        };
        let field = |k: usize| triple.index(k).and_then(super::data::Res::str);
        if field(0) == Some(start) && field(1) == Some(end) {
            return field(2).map(canonical_name).unwrap_or("other");
        }
    }
    "other"
}

fn canonical_name(name: &str) -> &'static str {
    match name {
        "zero" => "zero",
        "one" => "one",
        "two" => "two",
        "few" => "few",
        "many" => "many",
        _ => "other",
    }
}

pub fn categories(locale: &str, ordinal: bool) -> Vec<&'static str> {
    let r = rules(locale, ordinal);
    r.categories().map(category_name).collect()
}
