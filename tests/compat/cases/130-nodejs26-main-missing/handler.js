// A Function ported from AWS Lambda that still exports `handler` instead of `main`. The
// module loads, but the runtime finds no main: every request gets 500 "User function not
// loaded"; the runtime's own endpoints keep working.
exports.handler = async function (event) {
  return { statusCode: 200, body: JSON.stringify({ hello: event.queryStringParameters }) };
};
