/** A chat.completion as an OpenAI-compatible server returns it. */
export const completion = (message: Record<string, unknown>, finish: string) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'local-model',
  choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
  usage: { prompt_tokens: 20, completion_tokens: 8, total_tokens: 28 },
});

/** One tool call in an assistant message. */
export const toolCall = (id: string, name: string, args: unknown) => ({
  id,
  type: 'function',
  function: { name, arguments: JSON.stringify(args) },
});
