//! `globalThis.__shoal_intl`: the native half of Shoal's `Intl` (the
//! JavaScript half, in `crates/shoal-build/js/node/internal/intl/`, reads
//! and checks options as ECMA-402 orders it and builds the objects).
//!
//! Formatters are described by JSON (what the JavaScript side resolved);
//! the description is also the cache key, so a formatter evicted from the
//! bounded per-sandbox cache is rebuilt from it transparently.

use super::{collator, data, datefmt, dtf, locale, names, number, plural, segmenter, tz};
use javy_plugin_api::javy::quickjs::{Ctx, Exception, Function, Object, Result as JsResult};
use serde_json::{Map, Value, json};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// Formatters kept per kind; beyond this many the cache starts over.
const CACHE_LIMIT: usize = 64;

thread_local! {
    static DTF: RefCell<HashMap<String, Rc<dtf::DateTimeFormat>>> = RefCell::new(HashMap::new());
    static NF: RefCell<HashMap<String, Rc<number::NumberFormat>>> = RefCell::new(HashMap::new());
    static COLLATORS: RefCell<HashMap<String, Rc<icu_collator::CollatorBorrowed<'static>>>> = RefCell::new(HashMap::new());
}

fn cached<T>(
    cache: &'static std::thread::LocalKey<RefCell<HashMap<String, Rc<T>>>>,
    key: &str,
    make: impl FnOnce() -> Result<T, (&'static str, String)>,
) -> Result<Rc<T>, (&'static str, String)> {
    if let Some(v) = cache.with(|c| c.borrow().get(key).cloned()) {
        return Ok(v);
    }
    let v = Rc::new(make()?);
    cache.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= CACHE_LIMIT {
            c.clear();
        }
        c.insert(key.to_string(), v.clone());
    });
    Ok(v)
}

fn throw(ctx: &Ctx<'_>, (kind, message): (&str, String)) -> javy_plugin_api::javy::quickjs::Error {
    match kind {
        "TypeError" => Exception::throw_type(ctx, &message),
        "RangeError" => Exception::throw_range(ctx, &message),
        _ => Exception::throw_message(ctx, &message),
    }
}

fn parse(json: &str) -> Result<Value, (&'static str, String)> {
    serde_json::from_str(json).map_err(|e| ("Error", format!("Intl: bad native request: {e}")))
}

fn s(v: &Value, k: &str) -> Option<String> {
    v.get(k).and_then(Value::as_str).map(str::to_string)
}

fn u(v: &Value, k: &str) -> Option<u32> {
    v.get(k).and_then(Value::as_u64).and_then(|x| u32::try_from(x).ok())
}

fn strings(v: &Value, k: &str) -> Vec<String> {
    v.get(k)
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

fn flat(parts: Vec<(&'static str, String)>) -> Vec<String> {
    let mut out = Vec::with_capacity(parts.len() * 2);
    for (t, v) in parts {
        out.push(t.to_string());
        out.push(v);
    }
    out
}

// ---------------------------------------------------------------- locales

fn canonicalize_locale(tag: String) -> Option<String> {
    locale::canonicalize(&tag)
}

fn supported_locales(service: String, tags: Vec<String>) -> Vec<String> {
    let Some(service) = locale::Service::from_name(&service) else {
        return Vec::new();
    };
    tags.into_iter()
        .filter(|t| locale::best_available(service, &locale::split(t).base).is_some())
        .collect()
}

/// Which `-u-` keyword values a service accepts (V8's checks).
fn keyword_ok(key: &str, value: &str, data_locale: &str) -> bool {
    match key {
        "nu" => dtf::is_valid_numbering_system(value),
        "ca" => dtf::is_valid_calendar(value),
        "hc" => matches!(value, "h11" | "h12" | "h23" | "h24"),
        "kn" => matches!(value, "" | "true" | "false"),
        "kf" => matches!(value, "upper" | "lower" | "false"),
        "co" => names::collation_supported(data_locale, value),
        _ => false,
    }
}

/// ResolveLocale for a service: `{locale, dataLocale, keywords, numberingSystem}`.
/// `request` is `{service, locales, relevant: [...], options: {key: value}}`:
/// an option value replaces the keyword (dropping it from the locale when
/// they differ).
fn resolve_locale(request: &str) -> Result<String, (&'static str, String)> {
    let req = parse(request)?;
    let service = s(&req, "service")
        .and_then(|s| locale::Service::from_name(&s))
        .ok_or(("Error", "Intl: unknown service".into()))?;
    let relevant = strings(&req, "relevant");
    let relevant: Vec<&str> = relevant.iter().map(String::as_str).collect();
    let r = locale::resolve(service, &strings(&req, "locales"), &relevant, keyword_ok);
    let mut in_locale = r.keywords.clone();
    let mut effective = r.keywords.clone();
    if let Some(opts) = req.get("options").and_then(Value::as_object) {
        for (k, v) in opts {
            let Some(v) = v.as_str() else { continue };
            if in_locale.get(k).is_some_and(|x| x != v) {
                in_locale.remove(k);
            }
            if keyword_ok(k, v, &r.data_locale) {
                effective.insert(k.clone(), v.to_string());
            } else {
                effective.remove(k);
            }
        }
    }
    let icu = locale::icu_id(&r.data_locale);
    let (ns, _) = dtf::numbering_system(&icu, effective.get("nu").map(String::as_str));
    let keywords: Map<String, Value> = effective.into_iter().map(|(k, v)| (k, Value::String(v))).collect();
    Ok(json!({
        "locale": locale::with_keywords(&r.data_locale, &in_locale),
        "dataLocale": r.data_locale,
        "keywords": keywords,
        "numberingSystem": ns,
    })
    .to_string())
}

// ---------------------------------------------------------------- DateTimeFormat

fn dtf_options(v: &Value) -> dtf::Options {
    dtf::Options {
        locales: strings(v, "locales"),
        calendar: s(v, "calendar"),
        numbering_system: s(v, "numberingSystem"),
        hour12: v.get("hour12").and_then(Value::as_bool),
        hour_cycle: s(v, "hourCycle"),
        time_zone: s(v, "timeZone"),
        weekday: s(v, "weekday"),
        era: s(v, "era"),
        year: s(v, "year"),
        month: s(v, "month"),
        day: s(v, "day"),
        day_period: s(v, "dayPeriod"),
        hour: s(v, "hour"),
        minute: s(v, "minute"),
        second: s(v, "second"),
        fractional_second_digits: u(v, "fractionalSecondDigits").and_then(|x| u8::try_from(x).ok()),
        time_zone_name: s(v, "timeZoneName"),
        date_style: s(v, "dateStyle"),
        time_style: s(v, "timeStyle"),
        required: s(v, "required").unwrap_or_else(|| "any".into()),
        defaults: s(v, "defaults").unwrap_or_else(|| "date".into()),
        default_time_zone: s(v, "defaultTimeZone").unwrap_or_else(|| "UTC".into()),
    }
}

fn date_time_format(key: &str) -> Result<Rc<dtf::DateTimeFormat>, (&'static str, String)> {
    cached(&DTF, key, || {
        let v = parse(key)?;
        dtf::DateTimeFormat::new(&dtf_options(&v)).map_err(|e| match e {
            dtf::Error::Range(m) => ("RangeError", m),
            dtf::Error::Type(m) => ("TypeError", m),
        })
    })
}

/// Creates (and caches) a DateTimeFormat; returns its resolved options.
fn dtf_create(key: &str) -> Result<String, (&'static str, String)> {
    let f = date_time_format(key)?;
    let mut out = Map::new();
    out.insert("locale".into(), f.locale.clone().into());
    out.insert("calendar".into(), f.calendar.clone().into());
    out.insert("numberingSystem".into(), f.numbering_system.clone().into());
    out.insert("timeZone".into(), f.time_zone.clone().into());
    if let Some(hc) = f.hour_cycle {
        out.insert("hourCycle".into(), hc.into());
        out.insert("hour12".into(), (hc == "h11" || hc == "h12").into());
    }
    let components: Vec<Value> = f.components().into_iter().map(|(k, v)| json!([k, v])).collect();
    out.insert("components".into(), components.into());
    if let Some(d) = &f.date_style {
        out.insert("dateStyle".into(), d.clone().into());
    }
    if let Some(t) = &f.time_style {
        out.insert("timeStyle".into(), t.clone().into());
    }
    out.insert("pattern".into(), f.pattern.clone().into());
    Ok(Value::Object(out).to_string())
}

fn dtf_format(key: &str, t: f64) -> Result<Vec<String>, (&'static str, String)> {
    let f = date_time_format(key)?;
    Ok(flat(f.format.format_to_parts(t)))
}

fn dtf_format_range(key: &str, a: f64, b: f64) -> Result<Vec<String>, (&'static str, String)> {
    let f = date_time_format(key)?;
    let parts = super::interval::format_range(&f, a, b);
    let mut out = Vec::with_capacity(parts.len() * 3);
    for (t, v, source) in parts {
        out.push(t.to_string());
        out.push(v);
        out.push(source.to_string());
    }
    Ok(out)
}

// ---------------------------------------------------------------- NumberFormat

fn number_format(key: &str) -> Result<Rc<number::NumberFormat>, (&'static str, String)> {
    cached(&NF, key, || {
        let v = parse(key)?;
        let ns = s(&v, "numberingSystem").unwrap_or_else(|| "latn".into());
        let digits = dtf::digits_of(&ns).unwrap_or_else(|| "0123456789".chars().collect());
        let grouping = match v.get("useGrouping") {
            Some(Value::String(g)) => g.clone(),
            Some(Value::Bool(false)) => "false".into(),
            _ => "auto".into(),
        };
        let o = number::Options {
            locale: locale::icu_id(&s(&v, "dataLocale").unwrap_or_else(|| locale::DEFAULT_LOCALE.into())),
            numbering_system: ns,
            style: s(&v, "style").unwrap_or_else(|| "decimal".into()),
            currency: s(&v, "currency"),
            currency_display: s(&v, "currencyDisplay").unwrap_or_else(|| "symbol".into()),
            currency_sign: s(&v, "currencySign").unwrap_or_else(|| "standard".into()),
            unit: s(&v, "unit"),
            unit_display: s(&v, "unitDisplay").unwrap_or_else(|| "short".into()),
            notation: s(&v, "notation").unwrap_or_else(|| "standard".into()),
            compact_display: s(&v, "compactDisplay").unwrap_or_else(|| "short".into()),
            sign_display: s(&v, "signDisplay").unwrap_or_else(|| "auto".into()),
            use_grouping: grouping,
            rounding: number::Rounding {
                min_int: u(&v, "minimumIntegerDigits").unwrap_or(1),
                min_frac: u(&v, "minimumFractionDigits"),
                max_frac: u(&v, "maximumFractionDigits"),
                min_sig: u(&v, "minimumSignificantDigits"),
                max_sig: u(&v, "maximumSignificantDigits"),
                priority: s(&v, "roundingType").unwrap_or_else(|| "auto".into()),
                increment: u(&v, "roundingIncrement").unwrap_or(1),
                mode: s(&v, "roundingMode").unwrap_or_else(|| "halfExpand".into()),
                strip_if_integer: s(&v, "trailingZeroDisplay").as_deref() == Some("stripIfInteger"),
            },
        };
        Ok(number::NumberFormat::new(o, digits))
    })
}

fn nf_format(key: &str, value: &str) -> Result<Vec<String>, (&'static str, String)> {
    Ok(flat(number_format(key)?.format_to_parts(value)))
}

fn nf_format_range(key: &str, a: &str, b: &str) -> Result<Vec<String>, (&'static str, String)> {
    let f = number_format(key)?;
    let mut out = Vec::new();
    for (t, v, source) in f.format_range_to_parts(a, b) {
        out.push(t.to_string());
        out.push(v);
        out.push(source.to_string());
    }
    Ok(out)
}

// ---------------------------------------------------------------- plurals, collation, segmentation

fn nf_round(key: &str, value: &str) -> Result<String, (&'static str, String)> {
    Ok(number_format(key)?.rounded_plain(value))
}

fn plural_select(locale: String, kind: String, plain: String) -> String {
    plural::select(&locale::icu_id(&locale), kind == "ordinal", &plain, 0).to_string()
}

fn plural_select_range(locale: String, kind: String, start: String, end: String) -> String {
    plural::select_range(&locale::icu_id(&locale), kind == "ordinal", &start, &end).to_string()
}

fn plural_categories(locale: String, kind: String) -> Vec<String> {
    plural::categories(&locale::icu_id(&locale), kind == "ordinal")
        .into_iter()
        .map(str::to_string)
        .collect()
}

fn collator(key: &str) -> Result<Rc<icu_collator::CollatorBorrowed<'static>>, (&'static str, String)> {
    cached(&COLLATORS, key, || {
        let v = parse(key)?;
        let o = collator::Options {
            locale: s(&v, "collatorLocale").unwrap_or_else(|| "und".into()),
            sensitivity: s(&v, "sensitivity").unwrap_or_else(|| "variant".into()),
            ignore_punctuation: v.get("ignorePunctuation").and_then(Value::as_bool).unwrap_or(false),
        };
        collator::new(&o).ok_or(("RangeError", "Incorrect locale information provided".into()))
    })
}

fn collator_compare(key: &str, a: &str, b: &str) -> Result<i32, (&'static str, String)> {
    Ok(collator::compare(&*collator(key)?, a, b))
}

/// `[breakOffset, isWordLike (0/1), ...]` in UTF-16 units.
fn segment(granularity: String, text: String) -> Vec<f64> {
    let units: Vec<u16> = text.encode_utf16().collect();
    let (breaks, word_like) = segmenter::segment(&granularity, &units);
    let mut out = Vec::with_capacity(breaks.len() * 2);
    for (i, b) in breaks.iter().enumerate() {
        out.push(*b as f64);
        out.push(if word_like.get(i).copied().unwrap_or(false) {
            1.0
        } else {
            0.0
        });
    }
    out
}

// ---------------------------------------------------------------- data for the formatters written in JavaScript

/// A resource as JSON (`{"one": "...", "other": "..."}`, arrays, strings),
/// with fallback and aliases resolved entry by entry.
fn resource_json(tree: &str, locale_id: &str, path: &str, depth: u32) -> Value {
    let Some(r) = data::lookup(tree, locale_id, path) else {
        return Value::Null;
    };
    if let Some(s) = r.str() {
        return Value::String(s.to_string());
    }
    if depth > 4 {
        return Value::Null;
    }
    if r.is_table() {
        let mut keys: Vec<&'static str> = Vec::new();
        data::each_table_with_fallback(tree, locale_id, path, &mut |t| {
            for (k, _) in t.entries() {
                if !keys.contains(&k) {
                    keys.push(k);
                }
            }
        });
        let mut out = Map::new();
        for k in keys {
            let v = resource_json(tree, locale_id, &format!("{path}/{k}"), depth + 1);
            if !v.is_null() {
                out.insert(k.to_string(), v);
            }
        }
        return Value::Object(out);
    }
    Value::Array(
        (0..r.len())
            .map(|i| {
                r.index(i)
                    .and_then(data::Res::str)
                    .map(|s| Value::String(s.into()))
                    .unwrap_or(Value::Null)
            })
            .collect(),
    )
}

/// One string resource with ICU's fallback, or `undefined`.
fn lookup(tree: String, locale_tag: String, path: String) -> Option<String> {
    data::lookup_str(&tree, &locale::icu_id(&locale_tag), &path).map(str::to_string)
}

/// A resource of a bundle that is not per locale (`supplementalData`, ...) as JSON.
fn bundle_data(bundle: String, path: String) -> String {
    fn to_json(r: data::Res, depth: u32) -> Value {
        if let Some(s) = r.str() {
            return Value::String(s.to_string());
        }
        if let Some(i) = r.int() {
            return Value::from(i);
        }
        if depth > 6 {
            return Value::Null;
        }
        if r.is_table() {
            return Value::Object(
                r.entries()
                    .map(|(k, v)| (k.to_string(), to_json(v, depth + 1)))
                    .collect(),
            );
        }
        let v = r.int_vector();
        if !v.is_empty() {
            return Value::Array(v.into_iter().map(Value::from).collect());
        }
        Value::Array(
            (0..r.len())
                .filter_map(|i| r.index(i))
                .map(|x| to_json(x, depth + 1))
                .collect(),
        )
    }
    let found = if bundle == "shoal" {
        data::meta(&path)
    } else {
        data::bundle(&bundle).and_then(|b| if path.is_empty() { Some(b) } else { b.path(&path) })
    };
    found.map(|r| to_json(r, 0)).unwrap_or(Value::Null).to_string()
}

/// `{tree, locale, path}` → the resource as JSON (for relative time and list patterns).
fn locale_data(tree: String, locale_tag: String, path: String) -> String {
    resource_json(&tree, &locale::icu_id(&locale_tag), &path, 0).to_string()
}

fn locale_op(op: String, tag: String) -> Option<String> {
    names::locale_op(&op, &tag)
}

fn supported_values(key: String) -> Vec<String> {
    if key == "timeZone" {
        return tz::supported().into_iter().map(str::to_string).collect();
    }
    data::meta(&format!("supportedValues/{key}"))
        .map(data::Res::strings)
        .unwrap_or_default()
        .into_iter()
        .map(str::to_string)
        .collect()
}

fn currency_digits(code: String) -> f64 {
    data::bundle("curr/supplementalData")
        .and_then(|b| b.get("CurrencyMeta"))
        .and_then(|m| m.get(&code).or_else(|| m.get("DEFAULT")))
        .map(|r| r.int_vector())
        .and_then(|v| v.first().copied())
        .map(f64::from)
        .unwrap_or(2.0)
}

fn calendar_name(ca: String) -> Option<String> {
    datefmt::icu_calendar_name(&ca).map(|n| datefmt::bcp47_calendar_name(n).to_string())
}

/// Installs `globalThis.__shoal_intl`.
pub fn install(ctx: &Ctx<'_>) -> JsResult<()> {
    let o = Object::new(ctx.clone())?;
    macro_rules! wrap {
        ($name:literal, |$c:ident $(, $a:ident : $t:ty)*| $body:expr) => {
            o.set(
                $name,
                Function::new(ctx.clone(), |$c: Ctx<'_> $(, $a: $t)*| -> JsResult<_> {
                    let r = $body;
                    r.map_err(|e| throw(&$c, e))
                })?,
            )?;
        };
    }
    o.set("canonicalizeLocale", Function::new(ctx.clone(), canonicalize_locale)?)?;
    o.set("supportedLocales", Function::new(ctx.clone(), supported_locales)?)?;
    wrap!("resolveLocale", |c, req: String| resolve_locale(&req));
    wrap!("dateTimeFormat", |c, key: String| dtf_create(&key));
    wrap!("formatDateTime", |c, key: String, t: f64| dtf_format(&key, t));
    wrap!(
        "formatDateTimeRange",
        |c, key: String, a: f64, b: f64| dtf_format_range(&key, a, b)
    );
    wrap!("formatNumber", |c, key: String, value: String| nf_format(&key, &value));
    wrap!("formatNumberRange", |c, key: String, a: String, b: String| {
        nf_format_range(&key, &a, &b)
    });
    o.set("pluralSelect", Function::new(ctx.clone(), plural_select)?)?;
    o.set("pluralSelectRange", Function::new(ctx.clone(), plural_select_range)?)?;
    o.set("pluralCategories", Function::new(ctx.clone(), plural_categories)?)?;
    wrap!("compare", |c, key: String, a: String, b: String| collator_compare(
        &key, &a, &b
    ));
    o.set("segment", Function::new(ctx.clone(), segment)?)?;
    o.set("localeData", Function::new(ctx.clone(), locale_data)?)?;
    o.set("lookup", Function::new(ctx.clone(), lookup)?)?;
    o.set("bundleData", Function::new(ctx.clone(), bundle_data)?)?;
    wrap!("roundNumber", |c, key: String, value: String| nf_round(&key, &value));
    o.set("localeOp", Function::new(ctx.clone(), locale_op)?)?;
    o.set("supportedValues", Function::new(ctx.clone(), supported_values)?)?;
    o.set("currencyDigits", Function::new(ctx.clone(), currency_digits)?)?;
    o.set("calendarName", Function::new(ctx.clone(), calendar_name)?)?;
    ctx.globals().set("__shoal_intl", o)?;
    Ok(())
}
