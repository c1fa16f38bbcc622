-- The claim wizard's optional licence number and free-text hours per
-- service (docs/claims.md, "Licence number and service hours"). The
-- licence is checked on approval with the registries (licences.VerifyNumber):
-- licence_check is '' (not checked), 'verified' or 'not_verified'.
ALTER TABLE claims ADD COLUMN licence_number TEXT NOT NULL DEFAULT '';
ALTER TABLE claims ADD COLUMN licence_check TEXT NOT NULL DEFAULT '';
ALTER TABLE claims ADD COLUMN delivery_hours TEXT NOT NULL DEFAULT '';
ALTER TABLE claims ADD COLUMN curbside_pickup_hours TEXT NOT NULL DEFAULT '';
ALTER TABLE claims ADD COLUMN online_order_hours TEXT NOT NULL DEFAULT '';
