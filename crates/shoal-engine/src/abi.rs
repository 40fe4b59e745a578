//! The host ABI: what the engine imports from the node, declared once.
//!
//! A sandbox pulls its work: the engine's event loop calls `next_request`
//! (the host parks the guest there while no request is queued), reads the
//! request's head (JSON, `shoal_envelope::RequestHead`) and body with
//! `request_read`, and answers with `respond` (head JSON,
//! `shoal_envelope::ResponseHead`, and body). Operations the host performs
//! on its own async runtime (outbound HTTP, DNS, sockets) are started with
//! `http_start` / `op_start`, and their results collected after `wait`
//! returns their id. Pointers and lengths are guest-memory `i32`s; ids are
//! positive `i32`s; failures come back as results, never as traps.
//!
//! The plugin (`plugin/src/host.rs`) declares these imports in its
//! `extern` block and the runtime (`shoal-runtime`) defines them in its
//! linker; both are checked against [`IMPORTS`] by tests: the runtime's
//! test reads the committed engine's imports, so the two sides cannot drift
//! apart.

/// The import module every host function lives in. Bumped (`_v2`) on any
/// incompatible change, so an old engine fails to link instead of
/// misbehaving.
pub const MODULE: &str = "shoal_host_v1";

/// A WebAssembly value type in a host function's signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValType {
    /// 32-bit integer: pointers, lengths, ids, status codes.
    I32,
    /// 64-bit float: milliseconds.
    F64,
}

/// One host function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Import {
    /// Its name in [`MODULE`].
    pub name: &'static str,
    /// Parameter types.
    pub params: &'static [ValType],
    /// Result types.
    pub results: &'static [ValType],
}

use ValType::{F64, I32};

/// Waits for the next request; writes the sizes of its head and body as
/// two little-endian u32 at `out`; 1, or 0 when the sandbox is retired.
pub const NEXT_REQUEST: Import = Import {
    name: "next_request",
    params: &[I32],
    results: &[I32],
};
/// Copies the current request's head and body to `(head, body)`; 0, or -1
/// when there is none.
pub const REQUEST_READ: Import = Import {
    name: "request_read",
    params: &[I32, I32],
    results: &[I32],
};
/// Answers the current request with `(head, head_len, body, body_len)`; 0,
/// or -1 when there is none.
pub const RESPOND: Import = Import {
    name: "respond",
    params: &[I32, I32, I32, I32],
    results: &[I32],
};
/// Starts an outbound HTTP request `(head, head_len, body, body_len)`;
/// returns its id.
pub const HTTP_START: Import = Import {
    name: "http_start",
    params: &[I32, I32, I32, I32],
    results: &[I32],
};
/// Starts operation `(name, name_len)` (`dns.lookup`, `net.connect`, ...)
/// with `(head, head_len, body, body_len)`; returns its id.
pub const OP_START: Import = Import {
    name: "op_start",
    params: &[I32, I32, I32, I32, I32, I32],
    results: &[I32],
};
/// Aborts operation `id`; its result becomes an abort error.
pub const HTTP_CANCEL: Import = Import {
    name: "http_cancel",
    params: &[I32],
    results: &[],
};
/// Waits up to `timeout_ms` (negative: while calls are in flight) for an
/// operation to complete: its id, or 0 when the time passed first.
pub const WAIT: Import = Import {
    name: "wait",
    params: &[F64],
    results: &[I32],
};
/// Writes the sizes of operation `id`'s result head and body at `out`; 0,
/// or -1 for an unknown id.
pub const RESULT_SIZE: Import = Import {
    name: "result_size",
    params: &[I32, I32],
    results: &[I32],
};
/// Copies operation `id`'s result to `(head, body)` and forgets it.
pub const RESULT_READ: Import = Import {
    name: "result_read",
    params: &[I32, I32, I32],
    results: &[I32],
};

/// Every host function, in no particular order.
pub const IMPORTS: &[Import] = &[
    NEXT_REQUEST,
    REQUEST_READ,
    RESPOND,
    HTTP_START,
    OP_START,
    HTTP_CANCEL,
    WAIT,
    RESULT_SIZE,
    RESULT_READ,
];
