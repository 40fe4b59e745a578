// The third argument: sendResponse(body, status, headers).
module.exports = {
  main: async function (event, context, sendResponse) {
    const mode = event.extensions.request.query.mode;
    switch (mode) {
      case 'accepted':
        sendResponse({ queued: true, position: 3 }, 202, { 'X-Queue': 'orders' });
        return;
      case 'text':
        sendResponse('plain text reply', 200, { 'Content-Type': 'text/plain; charset=utf-8' });
        return;
      case 'no-content':
        sendResponse(undefined, 204);
        return;
      case 'not-found':
        sendResponse(null, 404);
        return;
      case 'twice':
        sendResponse({ first: true });
        sendResponse({ second: true });
        return { third: true };
      case 'late':
        // Responding from a timer after main has returned: the runtime has already
        // answered (empty 200) by then, so this is lost.
        setTimeout(() => sendResponse({ late: true }, 201), 20);
        return;
      default:
        await new Promise((r) => setTimeout(r, 5));
        sendResponse({ mode: mode || 'none' }, 200);
    }
  },
};
