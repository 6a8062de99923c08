package com.healthpartner.api.records;

/**
 * The statements that both kinds of health record run alike, built once for a record
 * table: reading one record by id or by client record id, deleting one with its
 * {@code deleted} change and audit event, and deleting one that an erasure hides (counted
 * on the erasure). The write of a record stays with its repository: its content columns
 * and view differ.
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
	 * The statements of {@code table} (aliased {@code r}), whose records are of
	 * {@code resource} ({@code metrics}, {@code assessments}; the erasure counts them in
	 * {@code <resource>_deleted}) and are read as {@code columns}.
	 */
	public static RecordStatements of(String table, String resource, String columns) {
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
