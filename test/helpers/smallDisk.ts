import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A real, small file system (tmpfs) mounted for a test: full and read-only disks are real there. */
export interface SmallDisk {
  dir: string;
  /** Remounts it with another size (more room: what a user does by freeing space). */
  resize: (bytes: number) => void;
  readOnly: () => void;
  unmount: () => void;
}

const mount = (args: string[]) => execFileSync('mount', args, { stdio: ['ignore', 'ignore', 'pipe'] });

/**
 * Mounts a tmpfs of `bytes`; mounting needs root (CAP_SYS_ADMIN), so elsewhere it answers why it
 * could not. Under CI=true (.ci/run runs as root) it must work: a failure there is thrown.
 */
export function smallDisk(bytes: number): SmallDisk | { reason: string } {
  const dir = mkdtempSync(join(tmpdir(), 'collect-small-disk-'));
  try {
    mount(['-t', 'tmpfs', '-o', `size=${bytes},mode=0700`, 'tmpfs', dir]);
  } catch (cause) {
    rmSync(dir, { recursive: true, force: true });
    const said = String((cause as { stderr?: Buffer }).stderr ?? cause).trim();
    const reason = `a small file system (mount -t tmpfs) needs root or CAP_SYS_ADMIN: ${said}`;
    if (process.env.CI === 'true') throw new Error(`${reason} (CI runs as root: this must work there)`);
    return { reason };
  }
  return {
    dir,
    resize: (size) => mount(['-o', `remount,size=${size}`, dir]),
    readOnly: () => mount(['-o', 'remount,ro', dir]),
    unmount: () => {
      execFileSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
