/** Commands that act on the machine rather than on files. */
import { literalArg } from '../args.js';
import type { Invocation, JudgeApi } from '../types.js';
import { def } from './registry.js';

export function system(inv: Invocation, j: JudgeApi): void {
  j.deny(`\`${inv.label}\` changes the machine itself (disks, power, kernel or boot), not files in the workspace`);
}
def(
  [
    'mkswap',
    'fdisk',
    'sfdisk',
    'cfdisk',
    'gdisk',
    'sgdisk',
    'parted',
    'wipefs',
    'shutdown',
    'reboot',
    'halt',
    'poweroff',
    'telinit',
    'mount',
    'umount',
    'swapoff',
    'swapon',
    'insmod',
    'rmmod',
    'modprobe',
    'kexec',
    'blkdiscard',
    'hdparm',
    'losetup',
    'cryptsetup',
    'lvremove',
    'vgremove',
    'pvremove',
    'mdadm',
    'zpool',
    'efibootmgr',
    'grub-install',
    'update-grub',
    'visudo',
    'passwd',
    'chpasswd',
    'useradd',
    'userdel',
    'usermod',
    'groupadd',
    'groupdel',
    'adduser',
    'deluser',
  ],
  system,
);

def(['init'], (inv, j) => {
  if (inv.args.some((a) => /^[0-6sS]$/.test(a.value ?? ''))) system(inv, j);
});

def(['systemctl'], (inv, j) => {
  if (
    inv.args.some((a) =>
      /^(poweroff|reboot|halt|kexec|suspend|hibernate|rescue|emergency|isolate|mask|disable|stop|kill|daemon-reexec|switch-root|set-default|edit|enable|link|preset)$/.test(
        a.value ?? '',
      ),
    )
  ) {
    j.deny(`\`${inv.label} ${inv.args.find((a) => !a.value?.startsWith('-'))?.text ?? ''}\` changes system services`);
  }
});

def(['kill', 'pkill', 'killall'], (inv, j) => {
  if (inv.name !== 'kill') {
    if (inv.args.some((a) => /^-u$|^--user$/.test(a.value ?? ''))) j.deny(`\`${inv.label}\` kills every process of a user`);
    return;
  }
  const targets = inv.args.filter(
    (a, i) => !(a.value?.startsWith('-') && !/^-1$/.test(a.value)) && !(i > 0 && /^-[sn]$/.test(inv.args[i - 1]!.value ?? '')),
  );
  if (targets.some((t) => t.value === '-1' || t.value === '1'))
    j.deny(`\`${inv.label} ${targets.map((t) => t.text).join(' ')}\` signals every process (or init)`);
});

def(['crontab'], (inv, j) => {
  const listing = inv.args.every((a) => /^-(l|u)$/.test(a.value ?? '') || inv.args[inv.args.indexOf(a) - 1]?.value === '-u');
  if (!listing || inv.args.length === 0) j.deny(`\`${inv.label}\` changes the crontab, which runs commands later, outside this session`);
});

def(['at', 'batch'], (inv, j) => {
  if (inv.args.some((a) => /^-[lrd]$/.test(a.value ?? ''))) return;
  j.deny(`\`${inv.label}\` schedules commands to run later, outside this session`);
});

def(['docker', 'podman', 'nerdctl'], (inv, j) => {
  const sub = inv.args.find((a) => !a.value?.startsWith('-'))?.value;
  if (sub !== 'run' && sub !== 'create' && sub !== 'exec') return;
  const args = inv.args;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value ?? '';
    if (
      v === '--privileged' ||
      /^--(pid|ipc|userns|uts|cgroupns)=host$/.test(v) ||
      v === '--cap-add=ALL' ||
      /^--cap-add=SYS_ADMIN$/.test(v)
    ) {
      j.deny(`\`${inv.label} ${v}\` gives the container control of the host`);
    }
    let volume: string | undefined;
    if (v === '-v' || v === '--volume' || v === '--mount') volume = args[i + 1]?.value;
    else if (/^(-v|--volume=|--mount=)/.test(v)) volume = v.replace(/^(-v|--volume=|--mount=)/, '');
    if (volume === undefined) continue;
    const source = /(^|,)(source|src)=([^,]+)/.exec(volume)?.[3] ?? (volume.includes(':') ? volume.split(':')[0] : undefined);
    if (source && /^[/~.$]/.test(source)) j.write(literalArg(source), inv, { verb: 'mounts into the container' });
  }
});
