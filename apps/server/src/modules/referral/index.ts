// What the fee-charging modules (spot, contract, option) use of this one: the rebates to post
// with a fee, without pulling in the rest of the referral service.
export { type FeeCharge, feeCharges, postCharging, rebatePostings } from './rebates.ts';
