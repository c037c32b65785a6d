import CarnetStore
import Foundation
import GRDB

/// The first schema.
///
/// Records live in `contact`, `group` and `container`; labeled values in one `labeledValue` table keyed by
/// multi-value kind, so a fetch reads exactly the kinds asked for. `contactNameFamily` and `contactNameGiven` are the FTS5
/// indexes for the name search; `labeledValue.searchKey` indexes normalized emails and phone numbers. `saveTransaction` numbers every
/// commit (revisions are these numbers) and `changeEvent` is the change history.
enum Migration001 {
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE storeInfo (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;

                CREATE TABLE saveTransaction (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    author TEXT,
                    timestamp REAL NOT NULL
                );
                CREATE INDEX saveTransaction_timestamp ON saveTransaction(timestamp);

                CREATE TABLE container (
                    rowid INTEGER PRIMARY KEY,
                    id TEXT NOT NULL UNIQUE,
                    name TEXT NOT NULL,
                    type INTEGER NOT NULL,
                    isDefault INTEGER NOT NULL DEFAULT 0,
                    revision INTEGER NOT NULL,
                    createdAt REAL NOT NULL,
                    modifiedAt REAL NOT NULL
                );

                CREATE TABLE contact (
                    rowid INTEGER PRIMARY KEY,
                    id TEXT NOT NULL UNIQUE,
                    containerRowid INTEGER NOT NULL REFERENCES container(rowid),
                    contactType INTEGER NOT NULL DEFAULT 0,
                    namePrefix TEXT NOT NULL DEFAULT '',
                    givenName TEXT NOT NULL DEFAULT '',
                    middleName TEXT NOT NULL DEFAULT '',
                    familyName TEXT NOT NULL DEFAULT '',
                    previousFamilyName TEXT NOT NULL DEFAULT '',
                    nameSuffix TEXT NOT NULL DEFAULT '',
                    nickname TEXT NOT NULL DEFAULT '',
                    phoneticGivenName TEXT NOT NULL DEFAULT '',
                    phoneticMiddleName TEXT NOT NULL DEFAULT '',
                    phoneticFamilyName TEXT NOT NULL DEFAULT '',
                    phoneticOrganizationName TEXT NOT NULL DEFAULT '',
                    organizationName TEXT NOT NULL DEFAULT '',
                    departmentName TEXT NOT NULL DEFAULT '',
                    jobTitle TEXT NOT NULL DEFAULT '',
                    note TEXT NOT NULL DEFAULT '',
                    birthday TEXT,
                    nonGregorianBirthday TEXT,
                    hasImage INTEGER NOT NULL DEFAULT 0,
                    sortGiven TEXT NOT NULL,
                    sortFamily TEXT NOT NULL,
                    ftsGiven INTEGER NOT NULL DEFAULT 0,
                    ftsFamily INTEGER NOT NULL DEFAULT 0,
                    createdRevision INTEGER NOT NULL,
                    revision INTEGER NOT NULL,
                    createdAt REAL NOT NULL,
                    modifiedAt REAL NOT NULL
                );
                CREATE INDEX contact_container ON contact(containerRowid);
                CREATE INDEX contact_sortGiven ON contact(sortGiven, id);
                CREATE INDEX contact_sortFamily ON contact(sortFamily, id);

                CREATE TABLE contactImage (
                    contactRowid INTEGER PRIMARY KEY REFERENCES contact(rowid) ON DELETE CASCADE,
                    imageData BLOB,
                    thumbnailImageData BLOB
                );

                -- The revision at which a key last changed, kept only for keys changed after the contact was added.
                CREATE TABLE contactKeyRevision (
                    contactRowid INTEGER NOT NULL REFERENCES contact(rowid) ON DELETE CASCADE,
                    key TEXT NOT NULL,
                    revision INTEGER NOT NULL,
                    PRIMARY KEY (contactRowid, key)
                ) WITHOUT ROWID;

                CREATE TABLE labeledValue (
                    rowid INTEGER PRIMARY KEY,
                    id TEXT NOT NULL UNIQUE,
                    contactRowid INTEGER NOT NULL REFERENCES contact(rowid) ON DELETE CASCADE,
                    kind INTEGER NOT NULL,
                    position INTEGER NOT NULL,
                    label TEXT,
                    value TEXT NOT NULL,
                    searchKey TEXT,
                    createdRevision INTEGER NOT NULL,
                    revision INTEGER NOT NULL
                );
                CREATE INDEX labeledValue_contact ON labeledValue(contactRowid, kind, position);
                CREATE INDEX labeledValue_search ON labeledValue(kind, searchKey) WHERE searchKey IS NOT NULL;

                -- The content a labeled value had before each change, so a merge can tell a value a client sent back
                -- untouched (it equals the content at the client's base revision) from one it edited.
                CREATE TABLE labeledValueVersion (
                    valueId TEXT NOT NULL,
                    supersededRevision INTEGER NOT NULL,
                    label TEXT,
                    value TEXT NOT NULL,
                    PRIMARY KEY (valueId, supersededRevision)
                ) WITHOUT ROWID;
                CREATE INDEX labeledValueVersion_revision ON labeledValueVersion(supersededRevision);

                -- Identifiers of deleted records and labeled values: never handed out again, and the evidence
                -- a merge needs to tell "deleted since your revision" from "never existed".
                CREATE TABLE retiredIdentifier (
                    id TEXT PRIMARY KEY NOT NULL,
                    kind INTEGER NOT NULL,
                    ownerId TEXT,
                    revision INTEGER NOT NULL
                ) WITHOUT ROWID;

                CREATE TABLE "group" (
                    rowid INTEGER PRIMARY KEY,
                    id TEXT NOT NULL UNIQUE,
                    containerRowid INTEGER NOT NULL REFERENCES container(rowid),
                    name TEXT NOT NULL,
                    sortName TEXT NOT NULL,
                    createdRevision INTEGER NOT NULL,
                    nameRevision INTEGER NOT NULL,
                    revision INTEGER NOT NULL,
                    createdAt REAL NOT NULL,
                    modifiedAt REAL NOT NULL
                );
                CREATE INDEX group_container ON "group"(containerRowid, sortName, id);

                CREATE TABLE groupMember (
                    groupRowid INTEGER NOT NULL REFERENCES "group"(rowid) ON DELETE CASCADE,
                    contactRowid INTEGER NOT NULL REFERENCES contact(rowid) ON DELETE CASCADE,
                    PRIMARY KEY (groupRowid, contactRowid)
                ) WITHOUT ROWID;
                CREATE INDEX groupMember_contact ON groupMember(contactRowid);

                -- The name search (see NameIndex): rowids follow the family-name and given-name orders.
                CREATE VIRTUAL TABLE contactNameFamily USING fts5(
                    names, content = '', columnsize = 0, detail = none, prefix = '1 2 3',
                    tokenize = 'unicode61 remove_diacritics 2'
                );
                CREATE VIRTUAL TABLE contactNameGiven USING fts5(
                    names, content = '', columnsize = 0, detail = none, prefix = '1 2 3',
                    tokenize = 'unicode61 remove_diacritics 2'
                );

                CREATE TABLE changeEvent (
                    position INTEGER PRIMARY KEY AUTOINCREMENT,
                    seq INTEGER NOT NULL,
                    kind INTEGER NOT NULL,
                    recordId TEXT NOT NULL,
                    otherId TEXT,
                    changedKeys TEXT
                );
                CREATE INDEX changeEvent_seq ON changeEvent(seq);
                """)
        let now = Date().timeIntervalSince1970
        try db.execute(
            sql: "INSERT INTO storeInfo (key, value) VALUES ('storeId', ?), ('oldestPosition', '0')",
            arguments: [UUID().uuidString])
        try db.execute(
            sql: """
                INSERT INTO container (id, name, type, isDefault, revision, createdAt, modifiedAt)
                VALUES (?, 'Local', 1, 1, 0, ?, ?)
                """,
            arguments: [Contact.makeIdentifier(), now, now])
    }
}
