import type { HelpCategory, Lang } from '@verdant/api';

interface SeedArticle {
  slug: string;
  category: HelpCategory;
  texts: Partial<Record<Lang, { title: string; body: string }>>;
}

/**
 * The common questions a fresh install starts with (operators edit them afterwards). They say
 * what the code does, no more: when a rule changes, its article is the operators' to update.
 */
export const SEED_ARTICLES: SeedArticle[] = [
  {
    slug: 'verification',
    category: 'account',
    texts: {
      en: {
        title: 'Why and how is my identity verified?',
        body: 'Options, contracts and withdrawals need a verified account. Basic verification asks for your name and identity document number; advanced verification asks for photos of the document and of you holding it.\n\nAn operator checks each submission by hand and passes or rejects it with a reason. You get a message either way. Your photos are never public: only you and the operators can open them.',
      },
      th: {
        title: 'ทำไมต้องยืนยันตัวตน และยืนยันอย่างไร',
        body: 'การซื้อขายออปชัน สัญญา และการถอนเงิน ต้องใช้บัญชีที่ยืนยันตัวตนแล้ว การยืนยันขั้นพื้นฐานใช้ชื่อและเลขเอกสารประจำตัว ขั้นสูงใช้รูปถ่ายเอกสารและรูปคุณถือเอกสาร\n\nเจ้าหน้าที่ตรวจสอบทุกคำขอด้วยตนเอง และอนุมัติหรือปฏิเสธพร้อมเหตุผล คุณจะได้รับข้อความทุกครั้ง รูปถ่ายของคุณไม่เป็นสาธารณะ มีเพียงคุณและเจ้าหน้าที่ที่เปิดดูได้',
      },
      zh: {
        title: '为什么要实名认证？如何认证？',
        body: '期权、合约和提现需要已认证的账户。初级认证需要填写姓名和证件号码；高级认证需要上传证件照片和手持证件照片。\n\n每份申请都由工作人员人工审核，通过或附理由驳回，结果都会以消息通知您。您的照片不会公开，只有您和工作人员可以查看。',
      },
      hk: {
        title: '為甚麼要實名認證？如何認證？',
        body: '期權、合約和提現需要已認證的賬戶。初級認證需要填寫姓名和證件號碼；高級認證需要上載證件相片和手持證件相片。\n\n每份申請都由職員人手審核，通過或附理由駁回，結果都會以訊息通知您。您的相片不會公開，只有您和職員可以查看。',
      },
      ja: {
        title: '本人確認はなぜ必要で、どう行いますか？',
        body: 'オプション、契約取引、出金には本人確認済みのアカウントが必要です。基本確認では氏名と身分証番号、高度確認では身分証の写真と、それを持ったご本人の写真を提出します。\n\n提出内容は担当者が一件ずつ確認し、承認するか理由を添えて却下します。結果はメッセージでお知らせします。写真は公開されず、ご本人と担当者だけが閲覧できます。',
      },
      ko: {
        title: '본인 인증은 왜 필요하고 어떻게 하나요?',
        body: '옵션, 선물 계약, 출금에는 인증된 계정이 필요합니다. 기본 인증은 이름과 신분증 번호를, 고급 인증은 신분증 사진과 신분증을 든 본인 사진을 제출합니다.\n\n제출된 내용은 담당자가 직접 확인하여 승인하거나 사유와 함께 반려하며, 결과는 메시지로 알려 드립니다. 사진은 공개되지 않으며 본인과 담당자만 볼 수 있습니다.',
      },
      es: {
        title: '¿Por qué y cómo se verifica mi identidad?',
        body: 'Las opciones, los contratos y los retiros requieren una cuenta verificada. La verificación básica pide su nombre y el número de su documento; la avanzada, fotos del documento y de usted sosteniéndolo.\n\nUn operador revisa cada solicitud a mano y la aprueba o la rechaza con un motivo. En ambos casos recibe un mensaje. Sus fotos nunca son públicas: solo usted y los operadores pueden abrirlas.',
      },
    },
  },
  {
    slug: 'deposits',
    category: 'deposit',
    texts: {
      en: {
        title: 'How are deposits reviewed?',
        body: 'Send coins to the deposit address shown for your account and chain (or pay into the platform bank account), then submit the deposit with the amount and a picture of the payment voucher.\n\nAn operator compares the voucher with what was received and either credits the amount received to your spot account or rejects the request with a reason. Nothing is credited before this review. You get a message with the result, and the deposit record shows its state.',
      },
      th: {
        title: 'การฝากเงินได้รับการตรวจสอบอย่างไร',
        body: 'โอนเหรียญไปยังที่อยู่ฝากที่แสดงสำหรับบัญชีและเครือข่ายของคุณ (หรือโอนเข้าบัญชีธนาคารของแพลตฟอร์ม) แล้วส่งคำขอฝากพร้อมจำนวนเงินและรูปหลักฐานการชำระเงิน\n\nเจ้าหน้าที่จะเทียบหลักฐานกับยอดที่ได้รับจริง แล้วเติมยอดที่ได้รับเข้าบัญชีสปอตของคุณ หรือปฏิเสธพร้อมเหตุผล ไม่มีการเติมยอดก่อนการตรวจสอบนี้ คุณจะได้รับข้อความแจ้งผล และดูสถานะได้ในประวัติการฝาก',
      },
      zh: {
        title: '充值如何审核？',
        body: '将币转入为您的账户和链显示的充值地址（或汇入平台银行账户），然后提交充值申请，填写金额并上传付款凭证图片。\n\n工作人员会将凭证与实际到账核对，把实际到账金额记入您的币币账户，或附理由驳回。审核前不会入账。结果会以消息通知您，充值记录中也会显示状态。',
      },
      hk: {
        title: '充值如何審核？',
        body: '將幣轉入為您的賬戶和鏈顯示的充值地址（或匯入平台銀行賬戶），然後提交充值申請，填寫金額並上載付款憑證圖片。\n\n職員會將憑證與實際到賬核對，把實際到賬金額記入您的幣幣賬戶，或附理由駁回。審核前不會入賬。結果會以訊息通知您，充值記錄中亦會顯示狀態。',
      },
      ja: {
        title: '入金はどのように審査されますか？',
        body: 'アカウントとチェーンごとに表示される入金アドレスへ送金し（またはプラットフォームの銀行口座へ振り込み）、金額と支払い証明の画像を添えて入金を申請してください。\n\n担当者が証明と実際の着金を照合し、着金額を現物アカウントに反映するか、理由を添えて却下します。審査前に反映されることはありません。結果はメッセージでお知らせし、入金履歴にも状態が表示されます。',
      },
      ko: {
        title: '입금은 어떻게 심사되나요?',
        body: '계정과 체인별로 표시되는 입금 주소로 코인을 보내거나 플랫폼 은행 계좌로 송금한 뒤, 금액과 결제 증빙 사진을 첨부해 입금을 신청하세요.\n\n담당자가 증빙과 실제 입금액을 대조하여 받은 금액을 현물 계정에 반영하거나 사유와 함께 반려합니다. 심사 전에는 반영되지 않습니다. 결과는 메시지로 알려 드리며 입금 기록에서도 상태를 볼 수 있습니다.',
      },
      es: {
        title: '¿Cómo se revisan los depósitos?',
        body: 'Envíe las monedas a la dirección de depósito que se muestra para su cuenta y red (o pague en la cuenta bancaria de la plataforma) y envíe el depósito con el importe y una foto del comprobante de pago.\n\nUn operador compara el comprobante con lo recibido y abona lo recibido en su cuenta spot, o rechaza la solicitud con un motivo. Nada se abona antes de esa revisión. Recibe un mensaje con el resultado y el historial de depósitos muestra su estado.',
      },
    },
  },
  {
    slug: 'pricing',
    category: 'fees',
    texts: {
      en: {
        title: 'Pricing and valuation method',
        body: 'Spot trades pay the market’s maker or taker fee (0.1 % by default): a buyer pays it in the coin bought, a seller in the currency received. Timed options charge 2 % of the profit of a winning option and nothing on a loss or a draw. Withdrawals pay the fee shown on the withdrawal page for the coin and chain.\n\nYour assets are valued in USDT at the latest recorded index price of each coin’s USDT market, the same prices the charts show. Amounts are truncated to the coin’s decimals, never rounded up. A coin without a price yet is left out of the total, and the total says so.',
      },
      th: {
        title: 'ค่าธรรมเนียมและวิธีการประเมินมูลค่า',
        body: 'การซื้อขายสปอตเสียค่าธรรมเนียมเมกเกอร์หรือเทกเกอร์ของตลาด (ค่าเริ่มต้น 0.1 %) ผู้ซื้อจ่ายเป็นเหรียญที่ซื้อ ผู้ขายจ่ายเป็นสกุลที่ได้รับ ออปชันแบบกำหนดเวลาเก็บ 2 % ของกำไรเมื่อชนะ และไม่เก็บเมื่อแพ้หรือเสมอ การถอนเสียค่าธรรมเนียมตามที่แสดงในหน้าถอนสำหรับเหรียญและเครือข่ายนั้น\n\nสินทรัพย์ของคุณประเมินเป็น USDT ตามราคาดัชนีล่าสุดที่บันทึกไว้ของตลาด USDT ของแต่ละเหรียญ ซึ่งเป็นราคาเดียวกับในกราฟ จำนวนจะถูกตัดตามทศนิยมของเหรียญ ไม่ปัดขึ้น เหรียญที่ยังไม่มีราคาจะไม่นับรวมและยอดรวมจะแจ้งไว้',
      },
      zh: {
        title: '费率与估值方法',
        body: '币币交易按市场的挂单或吃单费率收费（默认 0.1 %）：买方以买入的币支付，卖方以收到的币种支付。秒合约期权仅对盈利的订单收取盈利的 2 %，亏损或平局不收费。提现手续费以提现页面对该币种和链显示的为准。\n\n您的资产按各币种 USDT 市场最新记录的指数价格折算为 USDT，与图表显示的价格相同。金额按币种精度截断，从不向上取整。尚无价格的币种不计入总额，并会注明。',
      },
      hk: {
        title: '費率與估值方法',
        body: '幣幣交易按市場的掛單或吃單費率收費（預設 0.1 %）：買方以買入的幣支付，賣方以收到的幣種支付。秒合約期權只對盈利的訂單收取盈利的 2 %，虧損或平局不收費。提現手續費以提現頁面對該幣種和鏈顯示的為準。\n\n您的資產按各幣種 USDT 市場最新記錄的指數價格折算為 USDT，與圖表顯示的價格相同。金額按幣種精度截斷，從不向上取整。尚無價格的幣種不計入總額，並會註明。',
      },
      ja: {
        title: '手数料と評価方法',
        body: '現物取引には市場のメイカーまたはテイカー手数料（既定 0.1 %）がかかります。買い手は購入したコインで、売り手は受け取る通貨で支払います。時間制オプションは勝ったときの利益の 2 % のみで、負けや引き分けには手数料はかかりません。出金手数料は出金画面にコインとチェーンごとに表示されます。\n\n資産は各コインの USDT 市場で最後に記録された指数価格（チャートと同じ価格）で USDT に換算します。金額はコインの桁数で切り捨て、切り上げはしません。価格のないコインは合計に含めず、その旨を表示します。',
      },
      ko: {
        title: '수수료와 평가 방법',
        body: '현물 거래는 시장의 메이커 또는 테이커 수수료(기본 0.1 %)를 냅니다. 매수자는 산 코인으로, 매도자는 받는 통화로 냅니다. 시간제 옵션은 이긴 경우 수익의 2 %만 받고, 지거나 비기면 받지 않습니다. 출금 수수료는 출금 화면에 코인과 체인별로 표시됩니다.\n\n자산은 각 코인 USDT 시장의 최근 기록된 지수 가격(차트와 같은 가격)으로 USDT로 환산합니다. 금액은 코인의 소수 자릿수에서 버리며 올리지 않습니다. 가격이 없는 코인은 합계에서 빠지며 그 사실을 표시합니다.',
      },
      es: {
        title: 'Precios y método de valoración',
        body: 'Las operaciones spot pagan la comisión maker o taker del mercado (0,1 % por defecto): el comprador la paga en la moneda comprada y el vendedor en la moneda que recibe. Las opciones por tiempo cobran el 2 % del beneficio de una opción ganadora y nada si pierde o empata. Los retiros pagan la comisión que muestra la página de retiro para la moneda y la red.\n\nSus activos se valoran en USDT al último precio de índice registrado del mercado USDT de cada moneda, el mismo que muestran los gráficos. Los importes se truncan a los decimales de la moneda, nunca se redondean al alza. Una moneda sin precio todavía queda fuera del total, y el total lo indica.',
      },
    },
  },
  {
    slug: 'options',
    category: 'trading',
    texts: {
      en: {
        title: 'How do timed options settle?',
        body: 'You choose a delivery time and a direction. The purchase price is the latest recorded index tick at your purchase; the delivery price is the first recorded tick at or after the delivery time. Both ticks, with their time, are shown in the order’s detail.\n\nHigher than the purchase price wins for bullish, lower wins for bearish; the same price returns your whole stake. A win returns the stake plus the profit ratio shown before you buy, less 2 % of that profit. Nobody, operators included, can choose the tick or the result of an order.',
      },
      th: {
        title: 'ออปชันแบบกำหนดเวลาชำระผลอย่างไร',
        body: 'คุณเลือกเวลาส่งมอบและทิศทาง ราคาซื้อคือราคาดัชนีล่าสุดที่บันทึกไว้ ณ เวลาที่ซื้อ ราคาส่งมอบคือราคาแรกที่บันทึกไว้ ณ หรือหลังเวลาส่งมอบ ทั้งสองราคาและเวลาจะแสดงในรายละเอียดคำสั่ง\n\nขาขึ้นชนะเมื่อราคาสูงกว่าราคาซื้อ ขาลงชนะเมื่อต่ำกว่า ราคาเท่ากันคืนเงินเดิมพันทั้งหมด เมื่อชนะจะได้เงินเดิมพันคืนพร้อมกำไรตามอัตราที่แสดงก่อนซื้อ หัก 2 % ของกำไร ไม่มีใคร รวมถึงเจ้าหน้าที่ สามารถเลือกราคาหรือผลของคำสั่งได้',
      },
      zh: {
        title: '秒合约期权如何交割？',
        body: '您选择交割时间和方向。买入价是买入时最新记录的指数价格；交割价是交割时间当时或之后记录的第一个价格。两个价格及其时间都显示在订单详情中。\n\n看涨时高于买入价为赢，看跌时低于买入价为赢；价格相同则全额退还本金。赢时退还本金并按买入前显示的收益率获得收益，扣除收益的 2 %。任何人（包括工作人员）都不能选择价格或订单结果。',
      },
      hk: {
        title: '秒合約期權如何交割？',
        body: '您選擇交割時間和方向。買入價是買入時最新記錄的指數價格；交割價是交割時間當時或之後記錄的第一個價格。兩個價格及其時間都顯示在訂單詳情中。\n\n看漲時高於買入價為贏，看跌時低於買入價為贏；價格相同則全額退還本金。贏時退還本金並按買入前顯示的收益率獲得收益，扣除收益的 2 %。任何人（包括職員）都不能選擇價格或訂單結果。',
      },
      ja: {
        title: '時間制オプションはどう決済されますか？',
        body: '受け渡し時間と方向を選びます。購入価格は購入時点で最後に記録された指数ティック、受け渡し価格は受け渡し時刻以降に最初に記録されたティックです。どちらも時刻とともに注文の詳細に表示されます。\n\n上昇予想は購入価格より高ければ、下落予想は低ければ勝ちです。同じ価格なら掛け金を全額返します。勝った場合は掛け金に購入前に表示された利益率分を加え、その利益の 2 % を差し引いて返します。担当者を含め誰も、ティックや注文の結果を選ぶことはできません。',
      },
      ko: {
        title: '시간제 옵션은 어떻게 정산되나요?',
        body: '인도 시간과 방향을 고릅니다. 매수 가격은 매수 시점에 마지막으로 기록된 지수 틱이고, 인도 가격은 인도 시각 또는 그 이후에 처음 기록된 틱입니다. 두 틱과 시각은 주문 상세에 표시됩니다.\n\n상승은 매수가보다 높으면, 하락은 낮으면 이깁니다. 같은 가격이면 원금을 모두 돌려드립니다. 이기면 원금과 매수 전에 표시된 수익률만큼의 수익에서 그 수익의 2 %를 뺀 금액을 돌려드립니다. 담당자를 포함해 누구도 틱이나 주문 결과를 정할 수 없습니다.',
      },
      es: {
        title: '¿Cómo se liquidan las opciones por tiempo?',
        body: 'Elige un tiempo de entrega y una dirección. El precio de compra es el último tick del índice registrado en su compra; el de entrega, el primer tick registrado en o después del momento de entrega. Ambos ticks, con su hora, aparecen en el detalle de la orden.\n\nAl alza gana si el precio es mayor que el de compra, a la baja si es menor; el mismo precio devuelve toda la apuesta. Una opción ganadora devuelve la apuesta más el beneficio según el porcentaje mostrado antes de comprar, menos el 2 % de ese beneficio. Nadie, tampoco los operadores, puede elegir el tick ni el resultado de una orden.',
      },
    },
  },
  {
    slug: 'contact',
    category: 'contact',
    texts: {
      en: {
        title: 'Contact us',
        body: 'Open "Online service" in the help centre to write to our support team. You can send text and pictures; the conversation is kept, and replies reach you even if you were away when they were written.\n\nFor suggestions or problems that are not urgent, use "Feedback" in the help centre. Support will never ask for your password, fund password or verification codes.',
      },
      th: {
        title: 'ติดต่อเรา',
        body: 'เปิด "บริการออนไลน์" ในศูนย์ช่วยเหลือเพื่อเขียนถึงทีมสนับสนุน คุณส่งข้อความและรูปภาพได้ บทสนทนาจะถูกเก็บไว้ และคำตอบจะถึงคุณแม้ว่าคุณจะไม่ได้ออนไลน์ตอนที่ตอบ\n\nสำหรับข้อเสนอแนะหรือปัญหาที่ไม่เร่งด่วน ใช้ "ข้อเสนอแนะ" ในศูนย์ช่วยเหลือ ทีมสนับสนุนจะไม่ขอรหัสผ่าน รหัสผ่านการเงิน หรือรหัสยืนยันของคุณ',
      },
      zh: {
        title: '联系我们',
        body: '在帮助中心打开"在线客服"即可联系我们的客服团队。您可以发送文字和图片；对话会被保留，即使您离开时客服回复，回来后也能看到。\n\n不紧急的建议或问题，请使用帮助中心的"意见反馈"。客服绝不会索要您的登录密码、资金密码或验证码。',
      },
      hk: {
        title: '聯絡我們',
        body: '在幫助中心打開「在線客服」即可聯絡我們的客服團隊。您可以發送文字和圖片；對話會被保留，即使您離開時客服回覆，回來後亦能看到。\n\n不緊急的建議或問題，請使用幫助中心的「意見反饋」。客服絕不會索取您的登入密碼、資金密碼或驗證碼。',
      },
      ja: {
        title: 'お問い合わせ',
        body: 'ヘルプセンターの「オンラインサービス」からサポートチームにメッセージを送れます。文字と画像を送信でき、会話は保存されます。不在中に届いた返信も、戻ったときに表示されます。\n\n急ぎでないご意見や問題は、ヘルプセンターの「フィードバック」をご利用ください。サポートがパスワード、資金パスワード、認証コードを尋ねることはありません。',
      },
      ko: {
        title: '문의하기',
        body: '도움말 센터에서 "온라인 상담"을 열어 지원팀에 메시지를 보낼 수 있습니다. 텍스트와 사진을 보낼 수 있고, 대화는 보관되며 자리를 비운 사이 온 답장도 돌아오면 볼 수 있습니다.\n\n급하지 않은 제안이나 문제는 도움말 센터의 "피드백"을 이용하세요. 지원팀은 비밀번호, 자금 비밀번호, 인증 코드를 절대 묻지 않습니다.',
      },
      es: {
        title: 'Contacto',
        body: 'Abra "Servicio en línea" en el centro de ayuda para escribir a nuestro equipo de soporte. Puede enviar texto e imágenes; la conversación se guarda y las respuestas le llegan aunque no estuviera conectado cuando se escribieron.\n\nPara sugerencias o problemas no urgentes, use "Comentarios" en el centro de ayuda. Soporte nunca le pedirá su contraseña, su contraseña de fondos ni sus códigos de verificación.',
      },
    },
  },
];
