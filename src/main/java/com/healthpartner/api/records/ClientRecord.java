package com.healthpartner.api.records;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import com.healthpartner.api.json.Identifiers;
import com.healthpartner.api.problem.ApiException;
import com.healthpartner.api.problem.FieldErrors;
import com.healthpartner.api.problem.ProblemType;

/**
 * The partner's own id and version of a record ({@code client_record_id},
 * {@code client_record_version}), both optional on either POST. A version needs an id; an
 * id without version has version 0. Without an id both are null: the record is created as
 * before.
 */
public record ClientRecord(String id, Long version) {

	public static final String ID = "client_record_id";

	public static final String VERSION = "client_record_version";

	/** The largest version: JSON numbers are exact in every client up to 2^53 - 1. */
	public static final long MAX_VERSION = 9_007_199_254_740_991L;

	public static final ClientRecord NONE = new ClientRecord(null, null);

	/** The two fields of a body; bad ones are added to {@code errors}. */
	public static ClientRecord read(ObjectNode body, FieldErrors errors) {
		JsonNode id = body.get(ID);
		JsonNode version = body.get(VERSION);
		boolean hasId = id != null && !id.isNull();
		boolean hasVersion = version != null && !version.isNull();
		String checkedId = null;
		if (hasId) {
			if (!id.isString() || !Identifiers.wellFormed(id.stringValue())) {
				errors.add(ID, "must be a string of " + Identifiers.RULE);
			}
			else {
				checkedId = id.stringValue();
			}
		}
		Long checkedVersion = hasId ? Long.valueOf(0) : null;
		if (hasVersion) {
			if (!hasId) {
				errors.add(VERSION, "is only allowed together with " + ID);
			}
			else if (!version.isIntegralNumber() || !version.canConvertToLong() || version.longValue() < 0
					|| version.longValue() > MAX_VERSION) {
				errors.add(VERSION, "must be a whole number from 0 to " + MAX_VERSION);
			}
			else {
				checkedVersion = version.longValue();
			}
		}
		return (checkedId != null) ? new ClientRecord(checkedId, checkedVersion) : NONE;
	}

	/** Why a client record id stored for another user is refused. */
	static final String TAKEN = "is already used by a record of another user_id; a client record id names one record of one user";

	/** The {@code 409} of a client record id stored for another user. */
	public ApiException conflict() {
		return new ApiException(ProblemType.CONFLICT, ID + " " + this.id + " " + TAKEN);
	}

}
