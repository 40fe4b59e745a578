//! Trace context on HTTP: reading the caller's (`traceparent`, then B3 in
//! its single and multi-header forms, as Kyma's composite propagator
//! reads) and writing the one an outbound call carries (`traceparent` and
//! B3 multi-header, as Kyma's runtime injects).

use std::fmt;

/// A 16-byte trace id; never all zeroes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TraceId(pub [u8; 16]);

/// An 8-byte span id; never all zeroes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SpanId(pub [u8; 8]);

fn random_nonzero<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    loop {
        // Without the OS's randomness ids come from the clock, still
        // unique enough for tracing (they are not secrets).
        if getrandom::fill(&mut bytes).is_err() {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(1);
            for (i, b) in bytes.iter_mut().enumerate() {
                *b = (nanos >> ((i % 16) * 8)) as u8 ^ (i as u8);
            }
        }
        if bytes.iter().any(|b| *b != 0) {
            return bytes;
        }
    }
}

fn from_hex<const N: usize>(text: &str) -> Option<[u8; N]> {
    if text.len() != N * 2 {
        return None;
    }
    let mut out = [0u8; N];
    for (i, pair) in text.as_bytes().chunks(2).enumerate() {
        let hi = (pair[0] as char).to_digit(16)?;
        let lo = (pair[1] as char).to_digit(16)?;
        out[i] = (hi * 16 + lo) as u8;
    }
    out.iter().any(|b| *b != 0).then_some(out)
}

fn write_hex(f: &mut fmt::Formatter<'_>, bytes: &[u8]) -> fmt::Result {
    for b in bytes {
        write!(f, "{b:02x}")?;
    }
    Ok(())
}

impl TraceId {
    /// A new random trace id.
    pub fn random() -> Self {
        Self(random_nonzero())
    }

    /// From 32 hex digits; None for anything else or all zeroes.
    pub fn from_hex(text: &str) -> Option<Self> {
        from_hex(text).map(Self)
    }

    /// B3's 64-bit form (16 hex digits) widened to 128 bits, or the 128-bit form.
    fn from_b3(text: &str) -> Option<Self> {
        match text.len() {
            16 => from_hex::<8>(text).map(|low| {
                let mut id = [0u8; 16];
                id[8..].copy_from_slice(&low);
                Self(id)
            }),
            32 => Self::from_hex(text),
            _ => None,
        }
    }
}

impl SpanId {
    /// A new random span id.
    pub fn random() -> Self {
        Self(random_nonzero())
    }

    /// From 16 hex digits; None for anything else or all zeroes.
    pub fn from_hex(text: &str) -> Option<Self> {
        from_hex(text).map(Self)
    }
}

impl fmt::Display for TraceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_hex(f, &self.0)
    }
}

impl fmt::Debug for TraceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TraceId({self})")
    }
}

impl fmt::Display for SpanId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_hex(f, &self.0)
    }
}

impl fmt::Debug for SpanId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SpanId({self})")
    }
}

/// The span a request or a call continues.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceParent {
    /// Its trace.
    pub trace_id: TraceId,
    /// The parent span.
    pub span_id: SpanId,
    /// Whether the caller records it (W3C's sampled flag, B3's sampled).
    pub sampled: bool,
}

impl TraceParent {
    /// The caller's context from a request's headers: `traceparent` when it
    /// is valid, else B3 (`b3`, then `X-B3-TraceId`/`X-B3-SpanId`).
    pub fn from_headers(headers: &http::HeaderMap) -> Option<Self> {
        let get = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim);
        get("traceparent")
            .and_then(Self::parse_traceparent)
            .or_else(|| get("b3").and_then(Self::parse_b3_single))
            .or_else(|| {
                let trace_id = TraceId::from_b3(&get("x-b3-traceid")?.to_ascii_lowercase())?;
                let span_id = SpanId::from_hex(&get("x-b3-spanid")?.to_ascii_lowercase())?;
                let sampled = !matches!(get("x-b3-sampled"), Some("0") | Some("false"));
                Some(Self {
                    trace_id,
                    span_id,
                    sampled,
                })
            })
    }

    /// W3C Trace Context: `version-traceid-spanid-flags`; version ff is invalid,
    /// and a later version may carry more fields after these.
    pub fn parse_traceparent(value: &str) -> Option<Self> {
        let value = value.to_ascii_lowercase();
        let mut parts = value.split('-');
        let version = parts.next()?;
        let trace = parts.next()?;
        let span = parts.next()?;
        let flags = parts.next()?;
        if version.len() != 2 || version == "ff" || flags.len() != 2 || (version == "00" && parts.next().is_some()) {
            return None;
        }
        let flags = u8::from_str_radix(flags, 16).ok()?;
        Some(Self {
            trace_id: TraceId::from_hex(trace)?,
            span_id: SpanId::from_hex(span)?,
            sampled: flags & 1 == 1,
        })
    }

    /// B3 single header: `traceid-spanid[-sampled[-parentspanid]]`.
    fn parse_b3_single(value: &str) -> Option<Self> {
        let value = value.to_ascii_lowercase();
        let mut parts = value.split('-');
        let trace_id = TraceId::from_b3(parts.next()?)?;
        let span_id = SpanId::from_hex(parts.next()?)?;
        let sampled = !matches!(parts.next(), Some("0"));
        Some(Self {
            trace_id,
            span_id,
            sampled,
        })
    }

    /// The headers an outbound call continuing this span carries: W3C and
    /// B3 multi-header, as Kyma's runtime injects.
    pub fn headers(&self) -> [(&'static str, String); 4] {
        [
            ("traceparent", self.traceparent()),
            ("x-b3-traceid", self.trace_id.to_string()),
            ("x-b3-spanid", self.span_id.to_string()),
            ("x-b3-sampled", if self.sampled { "1" } else { "0" }.to_string()),
        ]
    }

    /// `traceparent` for this span.
    pub fn traceparent(&self) -> String {
        format!(
            "00-{}-{}-{}",
            self.trace_id,
            self.span_id,
            if self.sampled { "01" } else { "00" }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> http::HeaderMap {
        let mut map = http::HeaderMap::new();
        for (k, v) in pairs {
            map.insert(*k, v.parse().unwrap());
        }
        map
    }

    #[test]
    fn reads_w3c_then_b3_single_then_b3_multi() {
        let w3c = TraceParent::from_headers(&headers(&[
            ("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"),
            ("b3", "80f198ee56343ba864fe8b2a57d3eff7-e457b5a2e4d86bd1-1"),
        ]))
        .unwrap();
        assert_eq!(w3c.trace_id.to_string(), "4bf92f3577b34da6a3ce929d0e0e4736");
        assert_eq!(w3c.span_id.to_string(), "00f067aa0ba902b7");
        assert!(w3c.sampled);

        let single = TraceParent::from_headers(&headers(&[("b3", "80f198ee56343ba8-e457b5a2e4d86bd1-0")])).unwrap();
        assert_eq!(single.trace_id.to_string(), "000000000000000080f198ee56343ba8");
        assert!(!single.sampled);

        let multi = TraceParent::from_headers(&headers(&[
            ("x-b3-traceid", "80F198EE56343BA864FE8B2A57D3EFF7"),
            ("x-b3-spanid", "e457b5a2e4d86bd1"),
        ]))
        .unwrap();
        assert_eq!(multi.trace_id.to_string(), "80f198ee56343ba864fe8b2a57d3eff7");
        assert!(multi.sampled);
    }

    #[test]
    fn refuses_invalid_trace_context() {
        for bad in [
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
            "00-xyz",
        ] {
            assert_eq!(TraceParent::parse_traceparent(bad), None, "{bad}");
        }
        // A later version may add fields.
        assert!(
            TraceParent::parse_traceparent("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra").is_some()
        );
    }

    #[test]
    fn writes_what_it_reads() {
        let parent = TraceParent {
            trace_id: TraceId::random(),
            span_id: SpanId::random(),
            sampled: true,
        };
        assert_eq!(TraceParent::parse_traceparent(&parent.traceparent()), Some(parent));
        let [(_, tp), (_, trace), (_, span), (_, sampled)] = parent.headers();
        assert_eq!(tp, parent.traceparent());
        assert_eq!(trace, parent.trace_id.to_string());
        assert_eq!(span, parent.span_id.to_string());
        assert_eq!(sampled, "1");
    }
}
