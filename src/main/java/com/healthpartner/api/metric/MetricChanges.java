package com.healthpartner.api.metric;

import org.springframework.stereotype.Component;

import com.healthpartner.api.changes.ChangeRow;
import com.healthpartner.api.changes.ChangedRecords;

/** Metrics records in the change feed, shown with {@link MetricView}. */
@Component
class MetricChanges implements ChangedRecords {

	@Override
	public String resource() {
		return MetricHandler.RESOURCE;
	}

	@Override
	public void writeRecord(StringBuilder out, ChangeRow change) {
		MetricView
			.of(new MetricRow(change.recordId(), change.userId(), change.clientRecordId(), change.clientRecordVersion(),
					change.data(), change.recordedAt(), change.createdAt(), change.updatedAt()))
			.writeJson(out);
	}

}
