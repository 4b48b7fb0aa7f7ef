/**
 * Which `.rulesets.yaml` applies to a file, the rule `rulesets check` and the editor share: the
 * nearest one, in its folder or the closest parent that has one, no higher than the root, whole.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { nearestConfig, parentOfFolderUri, type FolderReader } from '../../server/src/documents/nearest-config';

/** Folders by path, `/`-separated, each with its file's text (or none), the root where `.git` would be. */
function tree(files: Record<string, string>, root?: string): FolderReader<string> & { read: string[] } {
  const read: string[] = [];
  return {
    read,
    configIn: (folder) => {
      read.push(folder);
      return files[folder];
    },
    isRoot: (folder) => folder === root,
    parentOf: (folder) => (folder === '/' ? undefined : folder.slice(0, folder.lastIndexOf('/')) || '/'),
  };
}

describe('the nearest .rulesets.yaml', () => {
  it("takes the file's own folder's first, then the closest parent's, and reads no higher once found", () => {
    const folders = tree({ '/repo': 'outer', '/repo/firewall': 'inner' });
    assert.deepEqual(nearestConfig('/repo/firewall/deep', folders), { folder: '/repo/firewall', config: 'inner' });
    assert.deepEqual(folders.read, ['/repo/firewall/deep', '/repo/firewall']);
    assert.deepEqual(nearestConfig('/repo/other', folders), { folder: '/repo', config: 'outer' });
  });

  it('looks no higher than the root, whose own file still counts', () => {
    assert.equal(nearestConfig('/work/repo/firewall', tree({ '/work': 'above' }, '/work/repo')), undefined);
    assert.deepEqual(nearestConfig('/work/repo/firewall', tree({ '/work/repo': 'at the root' }, '/work/repo')), { folder: '/work/repo', config: 'at the root' });
  });

  it('stops at the top of the file system when there is no root', () => {
    const folders = tree({});
    assert.equal(nearestConfig('/a/b', folders), undefined);
    assert.deepEqual(folders.read, ['/a/b', '/a', '/']);
  });

  it("walks a folder's URI up to the scheme's top", () => {
    assert.equal(parentOfFolderUri('file:///work/repo'), 'file:///work');
    assert.equal(parentOfFolderUri('file:///work'), 'file://');
    assert.equal(parentOfFolderUri('file://'), undefined);
  });
});
