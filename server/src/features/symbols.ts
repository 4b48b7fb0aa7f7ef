import type { DocumentSymbol } from 'vscode-languageserver';
import type { DocumentModel, Settings } from './model';

export function documentSymbols(_model: DocumentModel, _settings: Settings): DocumentSymbol[] {
  return []; // being written
}
