// Operator accounts from the command line, on the database the server uses (DATA_DIR or
// DATABASE_URL). With PGlite, stop the server first: the embedded database allows one process.
//
//   npm run admin:create -- --username alice --role admin       (or reviewer, support); the
//   password is a first one: the console asks for a new one, then TOTP enrolment, at first login
//   tsx apps/server/src/admin-cli.ts password --username alice   new password; sessions end
//   tsx apps/server/src/admin-cli.ts disable --username alice    (enable to undo); sessions end
//   tsx apps/server/src/admin-cli.ts totp-reset --username alice  lost authenticator; sessions end
//   tsx apps/server/src/admin-cli.ts list
//
// The password comes from the environment variable ADMIN_PASSWORD, or is asked for (twice,
// without echo) when the terminal is interactive, or is the first line of standard input.
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig } from './config.ts';
import { openDb } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { AppError } from './http/errors.ts';
import { t } from './i18n/index.ts';
import { resetOperatorTotp } from './modules/admin/manage.ts';
import {
  createOperator,
  listOperators,
  OPERATOR_PASSWORD_MIN,
  setOperatorDisabled,
  setOperatorPassword,
} from './modules/admin/operators.ts';

const USAGE = `usage:
  admin-cli create --username NAME --role admin|reviewer|support
  admin-cli password --username NAME
  admin-cli disable --username NAME
  admin-cli enable --username NAME
  admin-cli totp-reset --username NAME   (two-factor set up again at the next login; sessions end)
  admin-cli list
The password is read from ADMIN_PASSWORD, or asked for when interactive, or read from stdin.`;

/**
 * Asks each question in turn on the terminal and reads one line for each without showing what
 * is typed (raw mode: nothing is echoed). Keys typed ahead are kept for the next question.
 */
function promptHidden(questions: string[]): Promise<string[]> {
  const { stdin, stderr } = process;
  const answers: string[] = [];
  let value = '';
  stderr.write(questions[0] ?? '');
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    const done = () => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
    };
    function onData(chunk: string) {
      for (const ch of chunk) {
        if (ch === '\u0003') {
          done();
          stderr.write('\n');
          reject(new Error('cancelled'));
          return;
        }
        if (ch === '\r' || ch === '\n' || ch === '\u0004') {
          answers.push(value);
          value = '';
          stderr.write('\n');
          if (answers.length === questions.length) {
            done();
            resolve(answers);
            return;
          }
          stderr.write(questions[answers.length] ?? '');
        } else if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    }
    stdin.on('data', onData);
  });
}

async function readStdinLine(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

async function readPassword(): Promise<string> {
  if (process.env.ADMIN_PASSWORD) return process.env.ADMIN_PASSWORD;
  if (process.stdin.isTTY) {
    const [first, again] = await promptHidden([
      `Password (at least ${OPERATOR_PASSWORD_MIN} characters): `,
      'Password again: ',
    ]);
    if (first !== again) throw new Error('the two passwords are different');
    return first ?? '';
  }
  return readStdinLine();
}

/** Runs one command; answers the exit code. Messages in English on stdout, errors on stderr. */
export async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { username: { type: 'string' }, role: { type: 'string' }, help: { type: 'boolean' } },
  });
  const [command] = positionals;
  if (
    values.help ||
    !command ||
    !['create', 'password', 'disable', 'enable', 'totp-reset', 'list'].includes(command)
  ) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  if (command !== 'list' && !values.username) {
    console.error(`--username is required\n${USAGE}`);
    return 2;
  }
  let password: string | undefined;
  try {
    // asked for before the database opens (which takes a moment with PGlite)
    if (command === 'create' || command === 'password') password = await readPassword();
  } catch (e) {
    console.error((e as Error).message);
    return 1;
  }
  const config = loadConfig();
  const db = await openDb({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    schema: config.databaseSchema,
  });
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`;
  try {
    await migrate(db);
    if (command === 'list') {
      const ops = await listOperators(db);
      for (const o of ops)
        console.log(`${o.id}\t${o.username}\t${o.role}${o.disabled ? '\tdisabled' : ''}\t${o.created_at}`);
      console.log(`${ops.length} operator(s) in ${where}`);
      return 0;
    }
    if (command === 'create') {
      const op = await createOperator(db, { username: values.username, role: values.role, password });
      console.log(`created operator ${op.username} (${op.role}), id ${op.id}, in ${where}`);
    } else if (command === 'totp-reset') {
      const name = (values.username ?? '').trim().toLowerCase();
      const found = (await listOperators(db)).find((o) => o.username === name);
      if (!found) throw new AppError('NOT_FOUND', 'admin.operatorNotFound', {}, 'username');
      await resetOperatorTotp(db, null, null, { id: String(found.id) });
      console.log(
        `two-factor authentication reset for operator ${found.username}; their sessions ended (${where})`,
      );
    } else if (command === 'password') {
      const op = await setOperatorPassword(db, values.username, password);
      console.log(`new password set for operator ${op.username}; their sessions ended (${where})`);
    } else {
      const op = await setOperatorDisabled(db, values.username, command === 'disable');
      console.log(`operator ${op.username} ${command}d (${where})`);
    }
    return 0;
  } catch (e) {
    console.error(e instanceof AppError ? t('en', e.messageKey, e.params) : (e as Error).message);
    return 1;
  } finally {
    await db.close();
  }
}

// run as a script (not when a test imports `main`)
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
