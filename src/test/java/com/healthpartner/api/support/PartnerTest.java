package com.healthpartner.api.support;

import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;

import com.healthpartner.api.support.Partners.Credentials;

/**
 * A full-application test with a partner of its own for each test: on plan
 * {@code loadtest} with every scope ({@link #partner}), requests as a partner sends them
 * ({@link #api}), a user id no other test uses ({@link #user}), and the database to look
 * at what is stored ({@link #db}).
 */
public abstract class PartnerTest extends IntegrationTest {

	@Autowired
	protected DatabaseClient db;

	protected HealthApi api;

	protected Credentials partner;

	protected String user;

	@BeforeEach
	void partnerOfItsOwn() {
		this.api = new HealthApi(this.client);
		this.partner = this.partners.onboard("loadtest");
		this.user = newUserId();
	}

	/** The test's user id; a test of user ids gives its own form. */
	protected String newUserId() {
		return "member-" + UUID.randomUUID();
	}

}
