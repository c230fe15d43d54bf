import type { Db } from '../../db/client';
import { listOperators, setOperator } from './operators.service';

export const OPERATORS_USAGE = `npm run admin -- operator add <account>
  npm run admin -- operator remove <account>
  npm run admin -- operator list
                     makes an existing user (e-mail or mobile) a platform operator, who then sees
                     the operator area of the console (/operator), or takes the role away.`;

/** True when `operator` arguments are complete enough to open the database. */
export function isOperatorCommand(argv: string[]): boolean {
  const [area, action, account] = argv;
  if (area !== 'operator') return false;
  if (action === 'list') return account === undefined;
  return (action === 'add' || action === 'remove') && (account ?? '').trim() !== '';
}

/** Runs an `operator` command; prints to the given sinks and answers the exit code. */
export async function runOperatorCommand(
  db: Db,
  argv: string[],
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  const [, action, account] = argv;
  if (action === 'list') {
    const rows = await listOperators(db);
    if (rows.length === 0) out('No platform operators.');
    for (const row of rows) out(`${row.account}  ${row.name}`);
    return 0;
  }
  const on = action === 'add';
  if (!(await setOperator(db, account!, on))) {
    err(`No user has the account ${account}: they must register (or be invited) first.`);
    return 1;
  }
  out(on ? `${account} is now a platform operator.` : `${account} is no longer a platform operator.`);
  return 0;
}
