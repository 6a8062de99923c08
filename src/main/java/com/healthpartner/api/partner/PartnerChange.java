package com.healthpartner.api.partner;

import java.util.List;

import com.healthpartner.api.access.PartnerStatus;

/**
 * An administrator's JSON merge of a partner: {@code null} leaves a field as it is, so
 * that two changes of different fields made at the same time both hold.
 */
record PartnerChange(String plan, List<String> scopes, PartnerStatus status, Boolean signingRequired) {
}
