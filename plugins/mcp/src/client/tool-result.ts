import type { ToolResult } from '@nodwyn/plugin-api';

/** One content block of an MCP tool result, as far as nodwyn reads it. */
interface ContentBlock {
  readonly type: string;
  readonly text?: string;
  readonly data?: string;
  readonly mimeType?: string;
  readonly uri?: string;
  readonly name?: string;
  readonly resource?: { readonly uri?: string; readonly mimeType?: string; readonly text?: string; readonly blob?: string };
}

/** An MCP `tools/call` result. */
export interface McpCallResult {
  readonly content?: readonly ContentBlock[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
}

function bytes(base64: string | undefined): number {
  return base64 === undefined ? 0 : Math.floor((base64.replace(/=+$/, '').length * 3) / 4);
}

/** Text blocks as they are; embedded text resources with their URI; binary data summarized, never inlined. */
function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text ?? '';
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType ?? 'unknown type'}, ${bytes(block.data)} bytes, not shown]`;
    case 'resource': {
      const r = block.resource ?? {};
      if (typeof r.text === 'string') return `[resource ${r.uri ?? ''}]\n${r.text}`;
      return `[resource ${r.uri ?? ''} ${r.mimeType ?? 'unknown type'}, ${bytes(r.blob)} bytes, not shown]`;
    }
    case 'resource_link':
      return `[resource link ${block.uri ?? ''}${block.name ? ` (${block.name})` : ''}]`;
    default:
      return `[${block.type} content, not shown]`;
  }
}

function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

/** A read resource's part as the model sees it: its text with its URI, binary data summarized. */
export function resourceText(contents: NonNullable<ContentBlock['resource']>): string {
  return blockText({ type: 'resource', resource: contents });
}

/** The text of a result's content blocks, joined by newlines. */
export function resultText(result: McpCallResult): string {
  return (result.content ?? []).map(blockText).join('\n');
}

/**
 * A successful result as the model sees it: the content blocks' text, then `structuredContent` as JSON
 * unless a text block already is that JSON; `data` keeps `structuredContent` for host callers.
 */
export function toToolResult(result: McpCallResult): ToolResult {
  const parts = (result.content ?? []).map(blockText);
  const structured = result.structuredContent;
  if (structured !== undefined && !parts.some((part) => sameJson(part, structured))) parts.push(JSON.stringify(structured));
  return { content: parts.join('\n'), ...(structured !== undefined ? { data: { structuredContent: structured } } : {}) };
}
