import type { Position, SignatureHelp } from 'vscode-languageserver';
import type { DocumentModel, Settings } from './model';

export function signatureHelp(_model: DocumentModel, _position: Position, _settings: Settings): SignatureHelp | null {
  return null; // being written
}
