import type { SemanticTokens, SemanticTokensLegend } from 'vscode-languageserver';
import type { DocumentModel, Settings } from './model';

export const SEMANTIC_TOKENS_LEGEND: SemanticTokensLegend = { tokenTypes: [], tokenModifiers: [] };

export function semanticTokens(_model: DocumentModel, _settings: Settings): SemanticTokens {
  return { data: [] }; // being written
}
