-- Notices written by operators, and personal messages (docs/decisions.md "Notices and messages").

-- title and body: text per language code (th, en, ja, ko, es, zh, hk); English is required, a
-- missing language falls back to it. body is plain text (shown with its line breaks, never as HTML).
-- kind: notice or announcement. status: draft (operators only) or published (published_at set).
CREATE TABLE news (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL DEFAULT 'notice' CHECK (kind IN ('notice', 'announcement')),
  title jsonb NOT NULL CHECK (title ? 'en'),
  body jsonb NOT NULL CHECK (body ? 'en'),
  status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published')),
  published_at timestamptz,
  created_by integer REFERENCES operators (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'published') = (published_at IS NOT NULL))
);
CREATE INDEX news_published ON news (published_at DESC, id DESC) WHERE status = 'published';

-- which notices a logged-in user has opened (unread marks)
CREATE TABLE news_reads (
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  news_id integer NOT NULL REFERENCES news (id) ON DELETE CASCADE,
  read_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, news_id)
);

-- A personal message: what happened (kind) and its facts (params: ids, amounts as decimal strings,
-- symbols, a reason); the text is rendered from the server's locale keys in the reader's language.
CREATE TABLE messages (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('deposit_passed', 'deposit_rejected', 'withdrawal_passed',
    'withdrawal_rejected', 'verification_passed', 'verification_rejected', 'option_delivered',
    'position_liquidated', 'subscription_passed')),
  params jsonb NOT NULL DEFAULT '{}',
  read_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX messages_user ON messages (user_id, id DESC);
CREATE INDEX messages_unread ON messages (user_id) WHERE read_at IS NULL;

INSERT INTO news (kind, title, body, status, published_at) VALUES
  ('notice',
   '{"th":"ยินดีต้อนรับสู่ Verdant","en":"Welcome to Verdant","ja":"Verdantへようこそ","ko":"Verdant에 오신 것을 환영합니다","es":"Bienvenido a Verdant","zh":"欢迎来到 Verdant","hk":"歡迎來到 Verdant"}',
   '{"th":"Verdant เป็นแพลตฟอร์มซื้อขายสินทรัพย์ดิจิทัลแบบโอเพนซอร์ส ราคาที่ใช้ชำระทุกรายการมาจากราคาดัชนีที่บันทึกไว้ และคุณดูได้ในรายละเอียดของคำสั่งซื้อขาย\nยืนยันตัวตนก่อนซื้อออปชันหรือถอนเงิน และตั้งรหัสผ่านสำหรับทำธุรกรรมในศูนย์ความปลอดภัย","en":"Verdant is an open-source exchange for digital assets. Every price that settles your money is a recorded index price, shown in the order''s detail.\nVerify your identity before buying options or withdrawing, and set a fund password in the security centre.","ja":"Verdantはオープンソースのデジタル資産取引所です。決済に使われる価格はすべて記録されたインデックス価格で、注文の詳細に表示されます。\nオプションの購入や出金の前に本人確認を行い、セキュリティセンターで資金パスワードを設定してください。","ko":"Verdant는 오픈 소스 디지털 자산 거래소입니다. 정산에 쓰이는 모든 가격은 기록된 지수 가격이며 주문 상세에 표시됩니다.\n옵션 구매나 출금 전에 본인 인증을 하고, 보안 센터에서 자금 비밀번호를 설정하세요.","es":"Verdant es un exchange de activos digitales de código abierto. Cada precio que liquida su dinero es un precio de índice registrado, visible en el detalle de la orden.\nVerifique su identidad antes de comprar opciones o retirar, y establezca una contraseña de fondos en el centro de seguridad.","zh":"Verdant 是一个开源的数字资产交易平台。每一个用于结算的价格都是已记录的指数价格，可在订单详情中查看。\n购买期权或提现前请先完成实名认证，并在安全中心设置资金密码。","hk":"Verdant 是一個開源的數字資產交易平台。每一個用於結算的價格都是已記錄的指數價格，可在訂單詳情中查看。\n購買期權或提現前請先完成實名認證，並在安全中心設定資金密碼。"}',
   'published', now() - interval '1 minute'),
  ('announcement',
   '{"th":"การฝากและถอนเงินได้รับการตรวจสอบโดยเจ้าหน้าที่","en":"Deposits and withdrawals are reviewed by our staff","ja":"入金と出金はスタッフが確認します","ko":"입금과 출금은 직원이 검토합니다","es":"Nuestro equipo revisa los depósitos y retiros","zh":"充值与提现由工作人员审核","hk":"充值與提現由工作人員審核"}',
   '{"th":"เมื่อคุณส่งคำขอฝากหรือถอนเงิน เจ้าหน้าที่จะตรวจสอบและคุณจะได้รับข้อความแจ้งผลทันทีที่อนุมัติหรือปฏิเสธ ยอดเงินของคุณเปลี่ยนแปลงเฉพาะเมื่อได้รับอนุมัติเท่านั้น","en":"When you send a deposit or withdrawal request, our staff review it and you receive a message as soon as it is passed or rejected. Your balance changes only when a request is passed.","ja":"入金または出金の申請は、スタッフが確認します。承認または却下されるとすぐにメッセージでお知らせします。残高が変わるのは承認されたときだけです。","ko":"입금 또는 출금 신청은 직원이 검토하며, 승인되거나 거절되는 즉시 메시지로 알려 드립니다. 잔액은 승인될 때만 바뀝니다.","es":"Cuando envía una solicitud de depósito o retiro, nuestro equipo la revisa y usted recibe un mensaje en cuanto se aprueba o se rechaza. Su saldo solo cambia cuando se aprueba.","zh":"您提交充值或提现申请后，工作人员会进行审核，通过或驳回时您会立即收到消息。只有审核通过后余额才会变动。","hk":"您提交充值或提現申請後，工作人員會進行審核，通過或駁回時您會立即收到消息。只有審核通過後餘額才會變動。"}',
   'published', now());
