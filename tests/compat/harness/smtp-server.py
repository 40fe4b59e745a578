"""A throwaway SMTP server for the compat cases (aiosmtpd, from .ci/smtp-venv).

    python smtp-server.py CERT KEY

Listens on two free 127.0.0.1 ports and prints `SMTP_READY <port> <tls-port>`
once it accepts connections. The first offers STARTTLS with the harness's
test certificate and requires it before AUTH (PLAIN and LOGIN, user `shoal`,
password `smtp-pass`) and before MAIL, as a submission server does; the
second speaks SMTP inside TLS from the first byte (port 465's "implicit
TLS"), with the same AUTH. Recipients at
`invalid.test` are refused (550), so a client sees `rejected` addresses.
Every answer is deterministic for a fresh server: the greeting and EHLO name
are fixed, and the DATA answer counts the messages and names what arrived
(recipients, the decoded subject with non-ASCII escaped, size), which is
what a client sees as `response`.
"""

import asyncio
import email
import email.policy
import ssl
import sys

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

HOSTNAME = "smtp.shoal.test"
USER = b"shoal"
PASSWORD = b"smtp-pass"


class Recorder:
    """Accepts messages and says, in its answer, what it received."""

    def __init__(self):
        self.count = 0

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.lower().endswith("@invalid.test"):
            return f"550 5.1.1 <{address}>: Recipient address rejected: User unknown"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        message = email.message_from_bytes(envelope.original_content or envelope.content, policy=email.policy.default)
        subject = str(message.get("subject", ""))
        size = len(envelope.original_content or envelope.content)
        return (
            f"250 2.0.0 Ok: queued as MSG{self.count} "
            f"({len(envelope.rcpt_tos)} recipients, subject {ascii(subject)}, {size} bytes)"
        )


def authenticator(server, session, envelope, mechanism, auth_data):
    ok = isinstance(auth_data, LoginPassword) and auth_data.login == USER and auth_data.password == PASSWORD
    return AuthResult(success=ok, handled=False)


async def main(cert, key):
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    recorder = Recorder()
    loop = asyncio.get_running_loop()
    starttls = await loop.create_server(
        lambda: SMTP(
            recorder,
            hostname=HOSTNAME,
            ident="shoal-compat ESMTP",
            tls_context=context,
            require_starttls=True,
            authenticator=authenticator,
            auth_require_tls=True,
        ),
        host="127.0.0.1",
        port=0,
    )
    implicit = await loop.create_server(
        lambda: SMTP(
            recorder,
            hostname=HOSTNAME,
            ident="shoal-compat ESMTP",
            authenticator=authenticator,
            auth_require_tls=False,
        ),
        host="127.0.0.1",
        port=0,
        ssl=context,
    )
    ports = [s.sockets[0].getsockname()[1] for s in (starttls, implicit)]
    print(f"SMTP_READY {ports[0]} {ports[1]}", flush=True)
    async with starttls, implicit:
        await asyncio.gather(starttls.serve_forever(), implicit.serve_forever())


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
