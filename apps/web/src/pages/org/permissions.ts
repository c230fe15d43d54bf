import { AuthTags } from '@coldchain/contract';

/**
 * The permission editor groups `authTags` per module (`device:view`, `device:edit`, ... ->
 * device), in the order of the contract's list.
 */
export interface PermissionModule {
  module: string;
  rights: string[];
}

export const PERMISSION_MODULES: PermissionModule[] = AuthTags.reduce<PermissionModule[]>((modules, tag) => {
  const [module = tag, right = ''] = tag.split(':');
  const found = modules.find((m) => m.module === module);
  if (found) found.rights.push(right);
  else modules.push({ module, rights: [right] });
  return modules;
}, []);

/**
 * Ticking a right other than view also ticks view (it is useless without it); unticking view
 * unticks the module's other rights.
 */
export function toggleTag(selected: string[], tag: string, checked: boolean, allowed: string[]): string[] {
  const [module] = tag.split(':');
  const view = `${module}:view`;
  const next = new Set(selected);
  if (checked) {
    next.add(tag);
    if (tag !== view && allowed.includes(view)) next.add(view);
  } else {
    next.delete(tag);
    if (tag === view) for (const other of [...next]) if (other.startsWith(`${module}:`)) next.delete(other);
  }
  return AuthTags.filter((t) => next.has(t));
}

/** Module -> rights held, for the role table's permission column. */
export function summarizeTags(tags: string[]): { module: string; rights: string[] }[] {
  return PERMISSION_MODULES.map(({ module, rights }) => ({
    module,
    rights: rights.filter((right) => tags.includes(`${module}:${right}`)),
  })).filter((entry) => entry.rights.length > 0);
}
