/**
 * Tests read the CLI's output as plain text. picocolors turns colour on when `CI`
 * is set, so CI runs would see escape codes: the CLI processes the tests spawn
 * inherit NO_COLOR from here.
 */
process.env.NO_COLOR = '1';
delete process.env.FORCE_COLOR;
