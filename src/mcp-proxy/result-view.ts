import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * What PostToolUse sees of a tools/call result: every part the client will get.
 * A result that is only `content` is its content blocks (as Claude Code gives an MCP
 * tool's output); one with anything more (structuredContent, _meta, isError, any
 * other field) is the whole result object, so a hook that judges or redacts the
 * output reaches every part. An embedded resource's `blob` that is UTF-8 text is
 * shown as `text`, so a secret inside it is seen; binary data (images, audio, other
 * blobs) is shown as it is.
 */
export function responseOf(result: CallToolResult): unknown {
  const content = result.content.map(readableBlock);
  const onlyContent = Object.keys(result).every((k) => k === 'content');
  return onlyContent ? content : { ...result, content };
}

function readableBlock(block: CallToolResult['content'][number]): CallToolResult['content'][number] {
  if (block.type !== 'resource' || !('blob' in block.resource)) return block;
  const { blob, ...resource } = block.resource;
  const text = utf8Text(blob);
  return text === null ? block : { ...block, resource: { ...resource, text } };
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A base64 blob's text when it is valid UTF-8 with no NUL (a text file, not an image); else null. */
function utf8Text(blob: string): string | null {
  try {
    const text = strictUtf8.decode(Buffer.from(blob, 'base64'));
    return text.includes('\0') ? null : text;
  } catch {
    return null;
  }
}

/**
 * The result the client gets when a PostToolUse hook replaced the output. A
 * replacement of the whole result (an object with `content`, as the secret guard's
 * redacted copy is) must be a valid tools/call result, else it is withheld. Anything
 * else (a string, content blocks, `{ content }`) becomes the content, and the
 * original's other parts (structuredContent, _meta) are dropped with the output
 * they described; isError is kept, it says how the call went.
 */
export function replacedResult(original: CallToolResult, replacement: unknown, wholeWasShown: boolean): CallToolResult {
  if (wholeWasShown && isObject(replacement) && Array.isArray(replacement.content)) {
    const parsed = CallToolResultSchema.safeParse(replacement);
    if (parsed.success) return parsed.data;
    return {
      content: [
        {
          type: 'text',
          text: 'mcp-proxy: a PostToolUse hook replaced the result with something that is not a tools/call result; the output is withheld',
        },
      ],
      isError: true,
    };
  }
  return { content: contentOf(replacement), ...(original.isError ? { isError: true } : {}) };
}

/** updatedOutput as MCP content: a string is one text block; content blocks (or `{ content }`) pass as they are. */
function contentOf(output: unknown): CallToolResult['content'] {
  if (typeof output === 'string') return [{ type: 'text', text: output }];
  if (Array.isArray(output) && output.every((c) => isObject(c) && typeof c.type === 'string')) return output as CallToolResult['content'];
  const inner = isObject(output) ? output.content : undefined;
  if (Array.isArray(inner)) return inner as CallToolResult['content'];
  return [{ type: 'text', text: JSON.stringify(output) }];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
