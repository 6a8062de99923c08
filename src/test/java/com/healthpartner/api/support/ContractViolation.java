package com.healthpartner.api.support;

/**
 * An answer that the OpenAPI document does not describe: fails the test that received it.
 */
public class ContractViolation extends AssertionError {

	public ContractViolation(String message) {
		super(message);
	}

}
