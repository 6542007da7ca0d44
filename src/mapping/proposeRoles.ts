/**
 * What `map init` knows of export headers (source-files.md, part B; Shopify's, WooCommerce's,
 * a marketplace's): the field a column feeds and how, or why it is deliberately not proposed.
 * Data, not code: a header is looked up folded (lower case, letters and digits only).
 */

/** How a column's cells become a field: the converter `map init` writes. */
export type How = 'text' | 'datetime' | 'money' | 'split' | 'phone' | 'street' | 'status' | 'delivery';

/** Where a field goes: the order, its items, its payments (a file of its own), or a lookup file's row. */
export type Scope = 'order' | 'item' | 'payment' | 'customer' | 'product';

export interface Role {
  scope: Scope;
  /** The target field (`user.email`, `product.sku`); for `phone` and `street` the prefix of the pair. */
  target: string;
  how: How;
  /** A second target the same column feeds (`Email`: `user.email` and `user.id`; `Total`: the payment's value). */
  also?: string;
}

/** A column no field is proposed for, with the reason shown to the user. */
export interface Skip {
  skip: string;
}

const role = (scope: Scope, target: string, how: How = 'text', also?: string): Role => ({
  scope,
  target,
  how,
  ...(also ? { also } : {}),
});
const order = (target: string, how: How = 'text', also?: string) => role('order', target, how, also);
const item = (target: string, how: How = 'text') => role('item', target, how);
const custom = (name: string) => order(`custom_data.${name}`);

const STATUS_CHANGE = 'the time of a status change, not a field';
const RECIPIENT = 'a recipient, not the customer';
const NOT_SENT = 'not a field of the service';
const NO_STREET =
  'not an address: the service needs a street, a number and a country, which this export lacks';

const TABLE: Record<string, Role | Skip> = {
  // The order.
  id: order('id'),
  orderid: order('id'),
  name: custom('order_name'),
  ordername: custom('order_name'),
  ordernumber: custom('order_number'),
  createdat: order('creation_datetime', 'datetime'),
  orderpurchasetimestamp: order('creation_datetime', 'datetime'),
  orderdate: order('creation_datetime', 'datetime'),
  datecreated: order('creation_datetime', 'datetime'),
  placedat: order('creation_datetime', 'datetime'),
  currency: order('currency'),
  total: order('total_paid_value', 'money', 'payments.0.value'),
  totalprice: order('total_paid_value', 'money'),
  ordertotal: order('total_paid_value', 'money'),
  grandtotal: order('total_paid_value', 'money'),
  shipping: order('shipping_value', 'money'),
  shippingtotal: order('shipping_value', 'money'),
  shippingcost: order('shipping_value', 'money'),
  discountamount: order('discount_value', 'money'),
  totaldiscounts: order('discount_value', 'money'),
  discountcode: order('coupon_names', 'split'),
  discountcodes: order('coupon_names', 'split'),
  couponcode: order('coupon_names', 'split'),
  financialstatus: order('status', 'status', 'custom_data.financial_status'),
  orderstatus: order('status', 'status'),
  status: order('status', 'status'),
  // The customer: the buyer's own columns; a seller's or a recipient's never.
  email: order('user.email', 'text', 'user.id'),
  customeremail: order('user.email', 'text', 'user.id'),
  customerid: order('user.id'),
  billingemail: order('user.email', 'text', 'user.id'),
  billingname: order('user.name'),
  customername: order('user.name'),
  billingphone: order('user.', 'phone'),
  phone: order('user.', 'phone'),
  billingaddress1: order('user.address.', 'street'),
  billingaddress2: order('user.address.details'),
  billingcity: order('user.address.city'),
  billingprovince: order('user.address.state'),
  billingcountry: order('user.address.country'),
  billingzip: order('user.address.zip_code'),
  shippingaddress1: order('deliveries.0.address.', 'street'),
  shippingaddress2: order('deliveries.0.address.details'),
  shippingcity: order('deliveries.0.address.city'),
  shippingprovince: order('deliveries.0.address.state'),
  shippingcountry: order('deliveries.0.address.country'),
  shippingzip: order('deliveries.0.address.zip_code'),
  orderdeliveredcustomerdate: order('delivery_datetime', 'delivery'),
  // The payment, one per order, from the order's row.
  paymentmethod: order('payments.0.method'),
  paymentreference: order('payments.0.acquirer_id'),
  paymentid: { skip: 'the same token as Payment Reference, which is proposed' },
  paymentreferences: { skip: 'the same token as Payment Reference, which is proposed' },
  // Kept with the order, never sent as a service field.
  fulfillmentstatus: custom('fulfillment_status'),
  source: custom('source'),
  subtotal: custom('subtotal'),
  taxes: custom('taxes'),
  outstandingbalance: custom('outstanding_balance'),
  risklevel: custom('risk_level'),
  tags: custom('tags'),
  // Items: a line of the order.
  lineitemquantity: item('quantity'),
  quantity: item('quantity'),
  qty: item('quantity'),
  lineitemprice: item('unit_price', 'money'),
  price: item('unit_price', 'money'),
  unitprice: item('unit_price', 'money'),
  lineitemname: item('product.title'),
  productname: item('product.title'),
  lineitemsku: item('product.sku'),
  sku: item('product.sku'),
  productid: item('product.product_id'),
  sellerid: item('product.seller.id'),
  vendor: item('custom_data.vendor'),
  lineitemdiscount: item('custom_data.line_discount'),
  // A marketplace's payments file.
  paymenttype: role('payment', 'method'),
  paymentinstallments: role('payment', 'installments'),
  paymentvalue: role('payment', 'value', 'money'),
  // A marketplace's customers and products files, read by lookup.
  customeruniqueid: role('customer', 'user.id'),
  customercity: role('customer', 'custom_data.customer_city'),
  customerstate: role('customer', 'custom_data.customer_state'),
  customerzipcodeprefix: role('customer', 'custom_data.customer_zip_code_prefix'),
  productcategoryname: role('product', 'product.categories'),
  // Deliberately not proposed.
  paidat: { skip: STATUS_CHANGE },
  fulfilledat: { skip: STATUS_CHANGE },
  cancelledat: { skip: STATUS_CHANGE },
  orderapprovedat: { skip: STATUS_CHANGE },
  orderdeliveredcarrierdate: { skip: 'a hand-over to the carrier, not a delivery' },
  orderestimateddeliverydate: { skip: 'a promised date, not a delivery' },
  shippinglimitdate: { skip: 'a deadline to ship, not a delivery' },
  acceptsmarketing: { skip: NOT_SENT },
  shippingmethod: {
    skip: 'the delivery type is normal, express or pickup: add it with a values: map you confirm',
  },
  billingstreet: { skip: 'Address1 and Address2 together: Address1 and Address2 are proposed' },
  shippingstreet: { skip: 'Address1 and Address2 together: Address1 and Address2 are proposed' },
  billingcompany: { skip: NOT_SENT },
  shippingcompany: { skip: NOT_SENT },
  shippingname: { skip: RECIPIENT },
  shippingphone: { skip: RECIPIENT },
  billingprovincename: { skip: 'the name of Billing Province, which is proposed' },
  shippingprovincename: { skip: 'the name of Shipping Province, which is proposed' },
  lineitemcompareatprice: { skip: NOT_SENT },
  lineitemrequiresshipping: { skip: NOT_SENT },
  lineitemtaxable: { skip: NOT_SENT },
  lineitemfulfillmentstatus: { skip: NOT_SENT },
  orderitemid: { skip: 'a sequence inside the order, not a product id or a quantity' },
  freightvalue: { skip: "an item's share of the shipping: the service's items have no field for it" },
  productnamelenght: { skip: 'a length (a number), not the title' },
  productdescriptionlenght: { skip: 'a length (a number), not the description' },
  sellerzipcodeprefix: { skip: NO_STREET },
  sellercity: { skip: NO_STREET },
  sellerstate: { skip: NO_STREET },
};
for (const name of [
  'notes',
  'noteattributes',
  'refundedamount',
  'employee',
  'location',
  'deviceid',
  'receiptnumber',
  'duties',
  'paymenttermsname',
  'nextpaymentdueat',
  'productphotosqty',
  'productweightg',
  'productlengthcm',
  'productheightcm',
  'productwidthcm',
])
  TABLE[name] = { skip: NOT_SENT };

/** What a header is known to mean: a role, a reason not to propose it, or undefined (unknown). */
export function roleOf(header: string): Role | Skip | undefined {
  const folded = header.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (/^tax\d+(name|value)$/.test(folded)) return { skip: 'a tax line, not a field of the service' };
  return Object.hasOwn(TABLE, folded) ? TABLE[folded] : undefined;
}

export const isSkip = (known: Role | Skip | undefined): known is Skip =>
  known !== undefined && 'skip' in known;
