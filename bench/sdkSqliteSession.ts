/**
 * A better-sqlite3 session for the SDK, written for the agency bench: the Python SDK's
 * `SQLiteSession` table layout (`agent_sessions`, `agent_messages` with one JSON item per row) and
 * the WAL settings of our SqliteStore (journal_mode WAL, synchronous NORMAL), so that the agency on
 * SQLite is compared with the cheapest SDK code that keeps the same conversations in SQLite.
 */
import Database from 'better-sqlite3';
import type { AgentInputItem, Session } from '@openai/agents-core';

/** One database file shared by every session of a bench run. */
export class SqliteSessionDb {
  readonly db: Database.Database;
  readonly #insertSession: Database.Statement;
  readonly #insertItem: Database.Statement;
  readonly #touch: Database.Statement;
  readonly #select: Database.Statement;
  readonly #selectLast: Database.Statement;
  readonly add: (sessionId: string, items: AgentInputItem[]) => void;

  constructor(file: string) {
    this.db = new Database(file, { timeout: 5000 });
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS agent_sessions (
        session_id TEXT PRIMARY KEY,
        created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
        updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP);
      CREATE TABLE IF NOT EXISTS agent_messages (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id TEXT NOT NULL,
        message_data TEXT NOT NULL,
        created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
        FOREIGN KEY (session_id) REFERENCES agent_sessions (session_id) ON DELETE CASCADE);
      CREATE INDEX IF NOT EXISTS idx_agent_messages_session_id
        ON agent_messages (session_id, created_at);`);
    this.#insertSession = this.db.prepare(
      'INSERT OR IGNORE INTO agent_sessions (session_id) VALUES (?)',
    );
    this.#insertItem = this.db.prepare(
      'INSERT INTO agent_messages (session_id, message_data) VALUES (?, ?)',
    );
    this.#touch = this.db.prepare(
      'UPDATE agent_sessions SET updated_at = CURRENT_TIMESTAMP WHERE session_id = ?',
    );
    this.#select = this.db
      .prepare('SELECT message_data FROM agent_messages WHERE session_id = ? ORDER BY id ASC')
      .pluck();
    this.#selectLast = this.db
      .prepare(
        'SELECT message_data FROM agent_messages WHERE session_id = ? ORDER BY id DESC LIMIT ?',
      )
      .pluck();
    this.add = this.db.transaction((sessionId: string, items: AgentInputItem[]) => {
      this.#insertSession.run(sessionId);
      for (const item of items) this.#insertItem.run(sessionId, JSON.stringify(item));
      this.#touch.run(sessionId);
    });
  }

  /** The stored items of a session, oldest first (the last `limit` when given). */
  items(sessionId: string, limit?: number): AgentInputItem[] {
    const rows =
      limit === undefined
        ? (this.#select.all(sessionId) as string[])
        : (this.#selectLast.all(sessionId, limit) as string[]).reverse();
    return rows.map((row) => JSON.parse(row) as AgentInputItem);
  }
}

/** One conversation kept in a {@link SqliteSessionDb}. */
export class BetterSqliteSession implements Session {
  constructor(
    readonly db: SqliteSessionDb,
    readonly id: string,
  ) {}
  async getSessionId(): Promise<string> {
    return this.id;
  }
  async getItems(limit?: number): Promise<AgentInputItem[]> {
    return this.db.items(this.id, limit);
  }
  async addItems(items: AgentInputItem[]): Promise<void> {
    if (items.length) this.db.add(this.id, items);
  }
  async popItem(): Promise<AgentInputItem | undefined> {
    const row = this.db.db
      .prepare(
        'DELETE FROM agent_messages WHERE id = (SELECT MAX(id) FROM agent_messages WHERE session_id = ?) RETURNING message_data',
      )
      .pluck()
      .get(this.id) as string | undefined;
    return row === undefined ? undefined : (JSON.parse(row) as AgentInputItem);
  }
  async clearSession(): Promise<void> {
    this.db.db.prepare('DELETE FROM agent_messages WHERE session_id = ?').run(this.id);
    this.db.db.prepare('DELETE FROM agent_sessions WHERE session_id = ?').run(this.id);
  }
}
