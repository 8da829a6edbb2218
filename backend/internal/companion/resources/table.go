package resources

// checked is the day every entry below was read on its source page.
const checked = "2026-11-29"

// eu112 is the European Commission's notice, relayed, that 112 reaches the emergency services
// free of charge in every EU member state.
const eu112 = "https://www.news.lt/Law-And-Order-Crime/Need-help-Dial-112.im?f=c&id=189320&p=12"

// table holds only numbers read on their source page. Countries whose crisis line could not
// be verified keep their emergency number and fall back to findahelpline.com.
var table = []Country{
	{Code: "US", Name: "United States", Emergency: "911", EmergencySource: "https://health.wyo.gov/publichealth/prevention/wivpp/suicide-prevention/988-suicide-crisis-lifeline", Checked: checked, Lines: []Line{
		{Name: "988 Suicide & Crisis Lifeline", Kind: Crisis, Call: "988", Text: "988", Source: "https://health.wyo.gov/publichealth/prevention/wivpp/suicide-prevention/988-suicide-crisis-lifeline", Checked: checked},
		{Name: "RAINN National Sexual Assault Hotline", Kind: SexualAssault, Call: "800-656-4673", Source: "https://rainn.org/get-help/national-sexual-assault-hotline", Checked: checked},
		{Name: "Childhelp National Child Abuse Hotline", Kind: Child, Call: "1-800-422-4453", Text: "1-800-422-4453", Source: "http://helpisaclickaway.org", Checked: checked},
	}},
	{Code: "CA", Name: "Canada", Emergency: "911", EmergencySource: "https://www.gnb.ca/en/topic/laws-safety/community-safety/911.html", Checked: checked, Lines: []Line{
		{Name: "9-8-8: Suicide Crisis Helpline", Kind: Crisis, Call: "988", Text: "988", Source: "https://www.newswire.ca/news-releases/government-of-canada-launches-three-digit-suicide-crisis-helpline-896472116.html", Checked: checked},
	}},
	{Code: "GB", Name: "United Kingdom", Emergency: "999", EmergencySource: "https://247sexualabusesupport.org.uk/faqs/", Checked: checked, Lines: []Line{
		{Name: "Samaritans", Kind: Crisis, Call: "116 123", Source: "https://www.samaritans.org/how-we-can-help/contact-samaritan/", Checked: checked},
		{Name: "Childline (under 19)", Kind: Child, Call: "0800 1111", Source: "https://247sexualabusesupport.org.uk/faqs/", Checked: checked},
	}},
	{Code: "IE", Name: "Ireland", Emergency: "112", EmergencySource: eu112, Checked: checked, Lines: []Line{
		{Name: "Samaritans", Kind: Crisis, Call: "116 123", Source: "http://www.newstalk.com/reader/47.301/69999/0/", Checked: checked},
	}},
	{Code: "AU", Name: "Australia", Emergency: "000", EmergencySource: "https://lifelineh2h.org.au/get-help/telephone-crisis-support/faqs/", Checked: checked, Lines: []Line{
		{Name: "Lifeline", Kind: Crisis, Call: "13 11 14", Text: "0477 13 11 14", Source: "https://www.theleader.com.au/story/7611333/lifeline-crisis-text-service-goes-247-to-help-more-in-need/", Checked: checked},
		{Name: "Kids Helpline (ages 5 to 25)", Kind: Child, Call: "1800 55 1800", Source: "https://www.yourtown.com.au/kids-helpline-protects-children", Checked: checked},
	}},
	{Code: "NZ", Name: "New Zealand", Emergency: "111", EmergencySource: "http://www.voxy.co.nz/national/5/361737", Checked: checked, Lines: []Line{
		{Name: "1737, Need to talk?", Kind: Crisis, Call: "1737", Text: "1737", Source: "http://www.voxy.co.nz/national/5/361737", Checked: checked},
	}},
	{Code: "IN", Name: "India", Emergency: "112", EmergencySource: "https://en.vikaspedia.in/social-welfare/women-and-child-development/emergency-response-support-system", Checked: checked, Lines: []Line{
		{Name: "Tele-MANAS", Kind: Crisis, Call: "14416", Source: "https://www.livemint.com/news/india/govts-mental-health-helpline-tele-manas-receives-over-2-lakh-calls-since-launch-11690014660473.html", Checked: checked},
	}},
	{Code: "DE", Name: "Germany", Emergency: "112", EmergencySource: eu112, Checked: checked, Lines: []Line{
		{Name: "TelefonSeelsorge", Kind: Crisis, Call: "0800 111 0 111", Source: "https://www.domradio.de/glossar/telefonseelsorge-0", Checked: checked},
	}},
	{Code: "FR", Name: "France", Emergency: "112", EmergencySource: eu112, Checked: checked, Lines: []Line{
		{Name: "3114, numéro national de prévention du suicide", Kind: Crisis, Call: "3114", Source: "https://www.mayotte.ars.sante.fr/3114-le-numero-national-de-prevention-du-suicide", Checked: checked},
	}},
	{Code: "ES", Name: "Spain", Emergency: "112", EmergencySource: eu112, Checked: checked, Lines: []Line{
		{Name: "024, Línea de atención a la conducta suicida", Kind: Crisis, Call: "024", Source: "https://www.rtve.es/noticias/20220509/sanidad-presenta-telefono-prevencion-suicidio/2347183.shtml", Checked: checked},
	}},
	{Code: "IT", Name: "Italy", Emergency: "112", EmergencySource: eu112, Checked: checked, Lines: []Line{
		{Name: "Telefono Amico Italia", Kind: Crisis, Call: "02 2327 2327", Source: "https://alleyoop.ilsole24ore.com/2025/10/10/salute-mentale-300-richieste-di-aiuto-al-giorno-per-telefono-amico-italia/", Checked: checked},
	}},
	{Code: "NL", Name: "Netherlands", Emergency: "112", EmergencySource: eu112, Checked: checked, Lines: []Line{
		{Name: "113 Zelfmoordpreventie", Kind: Crisis, Call: "0800 0113", Source: "https://www.nu.nl/binnenland/6062813/hulplijn-113-nu-ook-rechtstreeks-bereikbaar-voor-zelfmoordpreventie.html", Checked: checked},
	}},
	{Code: "SE", Name: "Sweden", Emergency: "112", EmergencySource: eu112, Checked: checked, Lines: []Line{
		{Name: "Mind Självmordslinjen", Kind: Crisis, Call: "90101", Source: "http://www.kronprinsessparetsstiftelse.se/projekt/sjalvmordsupplysningen.html", Checked: checked},
	}},
	{Code: "JP", Name: "Japan", Emergency: "119", EmergencySource: "https://www.city.odate.lg.jp/city/foreign-language/english/emergency-call", Checked: checked},
	{Code: "KR", Name: "South Korea", Emergency: "119", EmergencySource: "https://progress.guide/atlas/asia/south-korea", Checked: checked, Lines: []Line{
		{Name: "Suicide prevention line 109", Kind: Crisis, Call: "109", Source: "https://m.hankookilbo.com/News/Read/Amp/A2024010316570003218", Checked: checked},
	}},
	{Code: "CN", Name: "China", Emergency: "120", EmergencySource: "https://www.chinalegalexperts.com/news/emergency-numbers-and-getting-help-in-china", Checked: checked, Lines: []Line{
		{Name: "National psychological assistance hotline", Kind: Crisis, Call: "12356", Source: "https://c.m.163.com/news/a/JKBD9CKU0514CC6P.html", Checked: checked},
	}},
	{Code: "HK", Name: "Hong Kong", Emergency: "999", EmergencySource: "https://csrp.hku.hk/getting-help/", Checked: checked, Lines: []Line{
		{Name: "The Samaritans (multilingual)", Kind: Crisis, Call: "2896 0000", Source: "https://csrp.hku.hk/getting-help/", Checked: checked},
		{Name: "The Samaritan Befrienders Hong Kong", Kind: Crisis, Call: "2389 2222", Source: "https://csrp.hku.hk/getting-help/", Checked: checked},
	}},
	{Code: "SG", Name: "Singapore", Emergency: "995", EmergencySource: "https://www.scdf.gov.sg/home/about-us/information-on-ems/scdf-emergency-medical-services", Checked: checked, Lines: []Line{
		{Name: "Samaritans of Singapore", Kind: Crisis, Call: "1767", Source: "https://www.daily8.com/en/hashtag/SamaritansOfSingapore", Checked: checked},
	}},
	{Code: "ZA", Name: "South Africa", Emergency: "112", EmergencySource: "https://mybroadband.co.za/news/telecoms/568418-south-africa-could-say-goodbye-to-10111-and-other-emergency-numbers.html", Checked: checked, Lines: []Line{
		{Name: "SADAG Suicide Crisis Helpline", Kind: Crisis, Call: "0800 567 567", Source: "http://www.pressreader.com/south-africa/the-star-early-edition/20190212/281668256233737", Checked: checked},
	}},
	{Code: "BR", Name: "Brazil", Emergency: "192", EmergencySource: "https://www.gov.br/saude/pt-br/campanhas-da-saude/2025/samu-192", Checked: checked, Lines: []Line{
		{Name: "CVV, Centro de Valorização da Vida", Kind: Crisis, Call: "188", Source: "https://teletime.com.br/27/06/2017/ligacoes-para-o-centro-de-valorizacao-da-vida-passarao-ser-gratuitas/", Checked: checked},
	}},
	{Code: "MX", Name: "Mexico", Emergency: "911", EmergencySource: "https://www.publimetro.com.mx/opinion/2024/03/01/usar-bien-los-numeros-de-emergencia-por-luis-wertman-zaslav/", Checked: checked, Lines: []Line{
		{Name: "Línea de la Vida", Kind: Crisis, Call: "800 911 2000", Source: "https://www.eluniversal.com.mx/nacion/promueven-la-linea-de-la-vida-tras-presentar-encuesta-sobre-consumo-de-drogas-asi-puedes-pedir-ayuda/", Checked: checked},
	}},
}
