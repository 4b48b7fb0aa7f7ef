import type { CodeAction, CodeActionContext, Range } from 'vscode-languageserver';
import type { DocumentModel, Settings } from './model';

export function codeActions(_model: DocumentModel, _range: Range, _context: CodeActionContext, _settings: Settings): CodeAction[] {
  return []; // being written
}
