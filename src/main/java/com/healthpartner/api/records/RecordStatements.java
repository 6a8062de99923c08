package com.healthpartner.api.records;

/**
 * The statements that both kinds of health record run alike, built once for a record
 * table: reading one record by id or by client record id, deleting one with its
 * {@code deleted} change and audit event, and deleting one that an erasure hides (counted
 * on the erasure); and the write of a batch of records ({@link #upsert}).
 *
 * @param find one visible record by {@code :partnerId} and {@code :id}
 * @param byClientId the record of {@code :clientRecordId}, visible or not (column
 * {@code visible})
 * @param delete one visible record, its change and its audit event; returns
 * {@code deleted}
 * @param deleteErased one record hidden by a pending erasure, counted on the erasure
 */
public record RecordStatements(String find, String byClientId, String delete, String deleteErased) {

	private static final String VISIBLE = Erasures.visible("r", "r.partner_id", "r.user_id");

	/**
	 * The write of a batch of records of {@code kind} to its table
	 * ({@link WriteBatches}), in one statement: each record is inserted or, for a client
	 * record id already stored with a lower version for the same user (and not hidden by
	 * an erasure), updated, with its column {@code view}: the record as the API shows it,
	 * rendered by the kind's SQL view function (a list passes it through); each written
	 * record gets its change (whose item holds that view), and each request its audit
	 * event per user (the records it wrote of that user counted, as a read's event counts
	 * a page), in the same statement, so all three commit together. A record that is not
	 * written (the stored version is the same or higher, or the id belongs to another
	 * user or an erased record) returns no row. The writes come as arrays, one element
	 * per record, in the order of the batch; the kind's content is its {@code jsonb}
	 * column (sent as text, parsed once), and a dated kind has {@code recorded_at}
	 * (metrics records). Returns the kind's columns, {@code partner_id} and
	 * {@code inserted} of each written record. A written record meets its input by client
	 * record id when it has one (an update keeps the stored record's id), else by id: one
	 * key, so the join is hashed (an {@code or} of the two compared every row with every
	 * input, 250,000 comparisons for a batch of 500).
	 */
	public static String upsert(RecordKind kind) {
		String table = kind.table();
		String resource = kind.resource();
		String content = kind.content();
		String view = kind.view();
		boolean recorded = kind.dated();
		String columns = kind.columns();
		String sql = """
				with input as (
				    select * from unnest(cast(:ids as uuid[]), cast(:partnerIds as uuid[]), cast(:userIds as text[]),
				                         cast(:clientRecordIds as text[]), cast(:clientRecordVersions as bigint[]),
				                         cast(cast(:contents as text[]) as jsonb[]), cast(:createdAts as timestamptz[]),
				                         cast(:createdAtTexts as text[]), cast(:auditIds as uuid[]),
				                         cast(:auditAts as timestamptz[]), cast(:keyIds as uuid[]),
				                         cast(:requestIds as text[])%1$s)
				        as i(id, partner_id, user_id, client_record_id, client_record_version, content, created_at,
				             created_text, audit_id, audit_at, key_id, request_id%2$s)
				), stored as (
				    insert into %3$s as r (id, partner_id, user_id, client_record_id, client_record_version, %4$s%5$s,
				                           created_at, updated_at, view)
				    select id, partner_id, user_id, client_record_id, client_record_version, content%5$s,
				           created_at, created_at,
				           %9$s(id, user_id, client_record_id, client_record_version, content, %10$s
				                 created_text, created_text)
				    from input order by partner_id, client_record_id
				    %6$s
				    returning r.*, (r.xmax = 0) as inserted
				), written as (
				    select s.*, i.created_text, i.audit_id, i.audit_at, i.key_id, i.request_id%7$s
				    from stored s join input i
				      on i.partner_id = s.partner_id
				     and coalesce('c' || i.client_record_id, 'i' || i.id) = coalesce('c' || s.client_record_id, 'i' || s.id)
				), change as (
				    insert into changes (partner_id, kind, resource, record_id, user_id, client_record_id, changed_at, item)
				    select partner_id, kind, '%8$s', id, user_id, client_record_id, updated_at,
				           change_item(kind, '%8$s', id, user_id, client_record_id, created_text, view)
				    from (select *, case when inserted then 'created' else 'updated' end as kind from written) w
				), audit as (
				    insert into audit_events (id, at, partner_id, key_id, user_id, action, resource, record_count, request_id)
				    select (array_agg(audit_id))[1], audit_at, partner_id, key_id, user_id, 'write', '%8$s', count(*), request_id
				    from written group by partner_id, request_id, user_id, key_id, audit_at
				)
				select %11$s, r.partner_id, inserted from stored r
				"""
			.formatted(recorded ? ", cast(:recordedAts as timestamptz[]), cast(:recordedAtTexts as text[])" : "",
					recorded ? ", recorded_at, recorded_text" : "", table, content, recorded ? ", recorded_at" : "",
					versionedUpdate(kind), recorded ? ", i.recorded_text" : "", resource, view,
					recorded ? "recorded_text," : "", columns);
		return SqlText.compact(sql);
	}

	/**
	 * The write of the records of one request (a batch's items, an import's chunk) to
	 * {@code kind}'s table, each as {@link #upsert} writes it, with its change and its
	 * request's audit event per user. What the request's records share is bound once:
	 * {@code :partnerId}, {@code :createdAt} (when it was received) and its text
	 * {@code :createdText}, and the audit event's {@code :auditAt}, {@code :keyId} and
	 * {@code :requestId}; {@code :auditIds} holds an unused id for each user (as many as
	 * records will do). So the change and the audit event need nothing of the input but
	 * what the stored row returns, and the statement has no join of its rows back to
	 * their input (a tenth of {@link #upsert}'s time in a batch of 500 records). Returns
	 * {@code id}, {@code client_record_id}, {@code view} (the record as stored for the
	 * API) and {@code inserted} of each written record.
	 */
	public static String upsertTogether(RecordKind kind) {
		String table = kind.table();
		String resource = kind.resource();
		String content = kind.content();
		String view = kind.view();
		boolean recorded = kind.dated();
		String sql = """
				with input as (
				    select * from unnest(cast(:ids as uuid[]), cast(:userIds as text[]), cast(:clientRecordIds as text[]),
				                         cast(:clientRecordVersions as bigint[]),
				                         cast(cast(:contents as text[]) as jsonb[])%1$s)
				        as i(id, user_id, client_record_id, client_record_version, content%2$s)
				), stored as (
				    insert into %3$s as r (id, partner_id, user_id, client_record_id, client_record_version, %4$s%5$s,
				                           created_at, updated_at, view)
				    select id, :partnerId, user_id, client_record_id, client_record_version, content%5$s,
				           :createdAt, :createdAt,
				           %6$s(id, user_id, client_record_id, client_record_version, content, %7$s
				                :createdText, :createdText)
				    from input order by client_record_id
				    %8$s
				    returning r.id, r.user_id, r.client_record_id, r.view, (r.xmax = 0) as inserted
				), change as (
				    insert into changes (partner_id, kind, resource, record_id, user_id, client_record_id, changed_at, item)
				    select :partnerId, kind, '%9$s', id, user_id, client_record_id, :createdAt,
				           change_item(kind, '%9$s', id, user_id, client_record_id, :createdText, view)
				    from (select *, case when inserted then 'created' else 'updated' end as kind from stored) s
				), audit as (
				    insert into audit_events (id, at, partner_id, key_id, user_id, action, resource, record_count, request_id)
				    select (cast(:auditIds as uuid[]))[row_number() over ()], :auditAt, :partnerId, :keyId, user_id,
				           'write', '%9$s', count(*), :requestId
				    from stored group by user_id
				)
				select id, client_record_id, view, inserted from stored
				"""
			.formatted(recorded ? ", cast(:recordedAts as timestamptz[]), cast(:recordedAtTexts as text[])" : "",
					recorded ? ", recorded_at, recorded_text" : "", table, content, recorded ? ", recorded_at" : "",
					view, recorded ? "recorded_text," : "", versionedUpdate(kind), resource);
		return SqlText.compact(sql);
	}

	/**
	 * The rule of section 9 that both writes follow: a record stored under the client
	 * record id (table alias {@code r}) is updated by the one proposed ({@code excluded})
	 * only if the stored version is lower, it is the same user's, and no pending erasure
	 * hides it; its view rendered anew.
	 */
	private static String versionedUpdate(RecordKind kind) {
		String content = kind.content();
		boolean recorded = kind.dated();
		return """
				on conflict (partner_id, client_record_id) where client_record_id is not null do update
				set %1$s = excluded.%1$s%2$s, client_record_version = excluded.client_record_version,
				    updated_at = excluded.updated_at,
				    view = %3$s(r.id, r.user_id, r.client_record_id, excluded.client_record_version, excluded.%1$s,
				                %4$s api_time(r.created_at), api_time(excluded.updated_at))
				where r.client_record_version < excluded.client_record_version and r.user_id = excluded.user_id
				  and %5$s
				""".formatted(content, recorded ? ", recorded_at = excluded.recorded_at" : "", kind.view(),
				recorded ? "api_time(excluded.recorded_at)," : "", VISIBLE);
	}

	/**
	 * The statements of {@code kind}'s table (aliased {@code r}), whose records are of
	 * its resource ({@code metrics}, {@code assessments}; the erasure counts them in
	 * {@code <resource>_deleted}) and are read as its columns.
	 */
	public static RecordStatements of(RecordKind kind) {
		String table = kind.table();
		String resource = kind.resource();
		String columns = kind.columns();
		String find = "select %s from %s r where partner_id = :partnerId and id = :id and %s".formatted(columns, table,
				VISIBLE);
		String byClientId = """
				select %s, %s as visible from %s r
				where partner_id = :partnerId and client_record_id = :clientRecordId
				""".formatted(columns, VISIBLE, table);
		String delete = """
				with gone as (
				    delete from %1$s r where partner_id = :partnerId and id = :id and %3$s
				    returning id, user_id, client_record_id
				), change as (
				    insert into changes (partner_id, kind, resource, record_id, user_id, client_record_id, changed_at, item)
				    select :partnerId, 'deleted', '%2$s', id, user_id, client_record_id, :auditAt,
				           change_item('deleted', '%2$s', id, user_id, client_record_id, api_time(:auditAt), null)
				    from gone
				), audit as (
				    insert into audit_events (id, at, partner_id, key_id, user_id, action, resource, record_count, request_id)
				    select :auditId, :auditAt, :partnerId, :keyId, user_id, 'delete', '%2$s', 1, :requestId from gone
				)
				select count(*) as deleted from gone
				"""
			.formatted(table, resource, VISIBLE);
		String deleteErased = """
				with gone as (
				    delete from %1$s r where partner_id = :partnerId and id = :id and not (%3$s)
				    returning user_id
				)
				update user_erasures set %2$s_deleted = %2$s_deleted + 1
				where id = (select e.id from user_erasures e join gone g on e.user_id = g.user_id
				            where e.partner_id = :partnerId and e.status = 'pending' order by e.requested_at limit 1)
				""".formatted(table, resource, VISIBLE);
		return new RecordStatements(find, byClientId, delete, deleteErased);
	}

}
