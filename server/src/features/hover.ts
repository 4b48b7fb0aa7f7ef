import type { Hover, Position } from 'vscode-languageserver';
import type { DocumentModel, Settings } from './model';

export function hover(_model: DocumentModel, _position: Position, _settings: Settings): Hover | null {
  return null; // being written
}
