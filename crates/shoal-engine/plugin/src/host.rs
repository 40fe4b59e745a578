//! Calls into the node (the `shoal_host_v1` import module): the requests a
//! sandbox serves (`next_request`, `respond`), operations the host performs
//! on its own async runtime (outbound HTTP, DNS, sockets: `op_start`), and
//! the one blocking primitive the JavaScript event loop needs, "wait until
//! an operation completes or a timer is due". The host implements `wait` and `next_request` as async functions,
//! so a Function awaiting upstreams, timers or its next request holds no
//! thread.
//!
//! The ABI is deliberately small: the request head and the results travel as
//! JSON, bodies as bytes; ids are positive `i32`s; nothing here panics on
//! host errors, they come back as results the JavaScript side turns into
//! rejected promises.

use javy_plugin_api::javy::quickjs::{
    Array, ArrayBuffer, Ctx, Exception, Function, Object, Result as JsResult, TypedArray, function::Opt,
};

#[link(wasm_import_module = "shoal_host_v1")]
unsafe extern "C" {
    /// Waits for the next request this sandbox serves and writes the sizes
    /// of its head (JSON) and body as two little-endian u32 at `out`;
    /// returns 1, or 0 when the sandbox is done (the host retires it) and
    /// the guest should return.
    #[link_name = "next_request"]
    fn host_next_request(out: *mut u8) -> i32;
    /// Copies the head and body announced by `next_request`.
    #[link_name = "request_read"]
    fn host_request_read(head: *mut u8, body: *mut u8) -> i32;
    /// Hands the response of the current request (head JSON, body) to the
    /// host.
    #[link_name = "respond"]
    fn host_respond(head: *const u8, head_len: usize, body: *const u8, body_len: usize) -> i32;
    /// Starts an outbound HTTP request; returns its id. Failures (egress
    /// policy, limits) are delivered as its result.
    #[link_name = "http_start"]
    fn host_http_start(head: *const u8, head_len: usize, body: *const u8, body_len: usize) -> i32;
    /// Starts host operation `name` (`dns.lookup`, `net.connect`,
    /// `socket.read`, ...) with a JSON head and a body; returns its id.
    /// Failures are delivered as its result.
    #[link_name = "op_start"]
    fn host_op_start(
        name: *const u8,
        name_len: usize,
        head: *const u8,
        head_len: usize,
        body: *const u8,
        body_len: usize,
    ) -> i32;
    /// Aborts an operation in flight (its result becomes an abort error).
    #[link_name = "http_cancel"]
    fn host_http_cancel(id: i32);
    /// Waits up to `timeout_ms` (negative: as long as calls are in flight)
    /// for a call to complete: its id, or 0 when the time passed first.
    #[link_name = "wait"]
    fn host_wait(timeout_ms: f64) -> i32;
    /// Writes the sizes of a completed call's result head and body as two
    /// little-endian u32 at `out`; returns 0, or -1 for an unknown id.
    #[link_name = "result_size"]
    fn host_result_size(id: i32, out: *mut u8) -> i32;
    /// Copies a completed call's result into guest memory and forgets it.
    #[link_name = "result_read"]
    fn host_result_read(id: i32, head: *mut u8, body: *mut u8) -> i32;
}

/// The next request as `[headJson, body]`, or `undefined` when the sandbox
/// is done.
fn next_request<'js>(ctx: Ctx<'js>) -> JsResult<Option<Array<'js>>> {
    let mut sizes = [0u8; 8];
    // SAFETY: `sizes` has room for the two u32 the host writes.
    if unsafe { host_next_request(sizes.as_mut_ptr()) } == 0 {
        return Ok(None);
    }
    let head_len = u32::from_le_bytes([sizes[0], sizes[1], sizes[2], sizes[3]]) as usize;
    let body_len = u32::from_le_bytes([sizes[4], sizes[5], sizes[6], sizes[7]]) as usize;
    let mut head = vec![0u8; head_len];
    let mut body = vec![0u8; body_len];
    // SAFETY: the buffers have exactly the sizes the host announced.
    if unsafe { host_request_read(head.as_mut_ptr(), body.as_mut_ptr()) } != 0 {
        return Err(Exception::throw_message(&ctx, "the request vanished"));
    }
    let head = String::from_utf8(head).map_err(|_| Exception::throw_message(&ctx, "the request head is not UTF-8"))?;
    let request = Array::new(ctx.clone())?;
    request.set(0, head)?;
    request.set(1, TypedArray::<u8>::new(ctx, body)?)?;
    Ok(Some(request))
}

fn respond<'js>(ctx: Ctx<'js>, head: String, body: TypedArray<'js, u8>) -> JsResult<()> {
    let body = body
        .as_bytes()
        .ok_or_else(|| Exception::throw_message(&ctx, "the response buffer is detached"))?;
    // SAFETY: both slices are live for the duration of the call; the host
    // only reads them.
    if unsafe { host_respond(head.as_ptr(), head.len(), body.as_ptr(), body.len()) } != 0 {
        return Err(Exception::throw_message(&ctx, "the host refused the response"));
    }
    Ok(())
}

fn http_start<'js>(ctx: Ctx<'js>, head: String, body: TypedArray<'js, u8>) -> JsResult<i32> {
    let body = body
        .as_bytes()
        .ok_or_else(|| Exception::throw_message(&ctx, "fetch: the body buffer is detached"))?;
    // SAFETY: both slices are live for the duration of the call; the host
    // only reads them.
    Ok(unsafe { host_http_start(head.as_ptr(), head.len(), body.as_ptr(), body.len()) })
}

fn op<'js>(ctx: Ctx<'js>, name: String, head: String, body: Opt<TypedArray<'js, u8>>) -> JsResult<i32> {
    let body = match &body.0 {
        Some(view) => view
            .as_bytes()
            .ok_or_else(|| Exception::throw_message(&ctx, &format!("{name}: the body buffer is detached")))?,
        None => &[],
    };
    // SAFETY: the three slices are live for the duration of the call; the
    // host only reads them.
    Ok(unsafe {
        host_op_start(
            name.as_ptr(),
            name.len(),
            head.as_ptr(),
            head.len(),
            body.as_ptr(),
            body.len(),
        )
    })
}

fn http_cancel(id: i32) {
    // SAFETY: a plain call; unknown ids are ignored by the host.
    unsafe { host_http_cancel(id) }
}

fn wait(timeout_ms: f64) -> i32 {
    // SAFETY: a plain call.
    unsafe { host_wait(timeout_ms) }
}

/// `[headJson, ArrayBuffer body]` of a completed call.
fn take<'js>(ctx: Ctx<'js>, id: i32) -> JsResult<Object<'js>> {
    let mut sizes = [0u8; 8];
    // SAFETY: `sizes` has room for the two u32 the host writes.
    if unsafe { host_result_size(id, sizes.as_mut_ptr()) } != 0 {
        return Err(Exception::throw_message(&ctx, &format!("no result for host call {id}")));
    }
    let head_len = u32::from_le_bytes([sizes[0], sizes[1], sizes[2], sizes[3]]) as usize;
    let body_len = u32::from_le_bytes([sizes[4], sizes[5], sizes[6], sizes[7]]) as usize;
    let mut head = vec![0u8; head_len];
    let mut body = vec![0u8; body_len];
    // SAFETY: the buffers have exactly the sizes the host reported.
    if unsafe { host_result_read(id, head.as_mut_ptr(), body.as_mut_ptr()) } != 0 {
        return Err(Exception::throw_message(
            &ctx,
            &format!("host call {id} result vanished"),
        ));
    }
    let result = Object::new(ctx.clone())?;
    result.set("head", String::from_utf8_lossy(&head).into_owned())?;
    result.set("body", ArrayBuffer::new(ctx.clone(), body)?)?;
    Ok(result)
}

/// Installs `globalThis.__shoal_host`.
pub fn install(ctx: &Ctx<'_>) -> JsResult<()> {
    let host = Object::new(ctx.clone())?;
    host.set("nextRequest", Function::new(ctx.clone(), next_request)?)?;
    host.set("respond", Function::new(ctx.clone(), respond)?)?;
    host.set("httpStart", Function::new(ctx.clone(), http_start)?)?;
    host.set("httpCancel", Function::new(ctx.clone(), http_cancel)?)?;
    host.set("op", Function::new(ctx.clone(), op)?)?;
    host.set("cancel", Function::new(ctx.clone(), http_cancel)?)?;
    host.set("wait", Function::new(ctx.clone(), wait)?)?;
    host.set("take", Function::new(ctx.clone(), take)?)?;
    ctx.globals().set("__shoal_host", host)?;
    Ok(())
}
