import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';

export interface LcTurn {
  text?: string;
  calls?: Array<{ id: string; name: string; args: Record<string, unknown> }>;
}

/** A tool-calling chat model that answers each call with the next scripted turn and records what it was sent. */
export class ScriptedChatModel extends BaseChatModel {
  readonly seen: BaseMessage[][] = [];
  private i = 0;
  constructor(private readonly turns: LcTurn[]) {
    super({});
  }
  _llmType(): string {
    return 'scripted';
  }
  override bindTools(): this {
    return this;
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.seen.push(messages);
    const turn = this.turns[this.i++];
    if (!turn) throw new Error(`scripted chat model: no turn ${this.i}`);
    const message = new AIMessage({
      content: turn.text ?? '',
      tool_calls: (turn.calls ?? []).map((c) => ({ ...c, type: 'tool_call' as const })),
    });
    return { generations: [{ text: turn.text ?? '', message }] };
  }
}
