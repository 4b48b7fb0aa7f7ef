import type { CompletionList, Position } from 'vscode-languageserver';
import type { DocumentModel, Settings } from './model';

export const COMPLETION_TRIGGER_CHARACTERS = [' ', '.', '$', '{', '"', '('];

export function completion(_model: DocumentModel, _position: Position, _settings: Settings): CompletionList | null {
  return null; // being written
}
