import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SMTPServer } from 'smtp-server';

interface ReceivedMail {
  from: string;
  to: string[];
  /** The login the client gave, and whether the message came over TLS (STARTTLS upgraded it). */
  user: string | null;
  secure: boolean;
  /** The message as it arrived: headers, then the body. */
  raw: string;
}

export interface TestSmtpServer {
  /** `smtp://127.0.0.1:<port>`: plain at first, STARTTLS offered. */
  url: string;
  /** The PEM of its self-signed certificate: the CA a client must be told to trust. */
  caFile: string;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/**
 * A real SMTP server (smtp-server, from the Nodemailer project) on a free port, offering STARTTLS
 * with a certificate made for the run by openssl, taking one login (`user`/`password`) and
 * refusing any mail sent before STARTTLS: what it received, and how, is what the tests read.
 */
export async function startSmtpServer(user: string, password: string): Promise<TestSmtpServer> {
  const dir = await mkdtemp(join(tmpdir(), 'studio-smtp-'));
  const keyFile = join(dir, 'key.pem');
  const caFile = join(dir, 'cert.pem');
  await promisify(execFile)('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    keyFile,
    '-out',
    caFile,
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  ]);
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    key: await readFile(keyFile),
    cert: await readFile(caFile),
    logger: false,
    onAuth: (auth, _session, done) =>
      auth.username === user && auth.password === password
        ? done(null, { user: auth.username })
        : done(new Error('invalid login')),
    onMailFrom: (_address, session, done) => (session.secure ? done() : done(new Error('STARTTLS first'))),
    onData: (stream, session, done) => {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          user: typeof session.user === 'string' ? session.user : null,
          secure: session.secure,
          raw,
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    caFile,
    received,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
