"""Writes extra.jsonl, the crisis screen's own training corpus (see README.md): hand-written
phrasings per category, risky and harmless, and a few seeded, deterministic combinations.
Run: python3 gencorpus.py, then make generate to retrain scorer.bin."""
import json, os, random
R = {}
H = {}
R['passive_wish'] = """
i wish i could just fall asleep and stay asleep
sometimes i hope i dont wake up
honestly wouldnt mind if i didnt make it to next year
i keep wishing i was never born
it would be nice to just stop existing for a while. or forever
i wish i could disappear and nobody would notice
i hope something bad happens to me so i dont have to deal with anything
if i died in my sleep tonight that would be fine by me
i wouldnt care if a truck hit me tbh
i keep thinking how peaceful it would be to not be here
i just want everything to stop. including me
kinda wish i just didnt exist
i want to go to sleep and not come back
wish i could just fade away
id be fine if i never woke up again
i dont want to be here anymore
i dont want to exist anymore
being alive feels like a punishment
sometimes i think dying would be easier than this
i wish someone would just end it for me
i wish i had never been born honestly
what if i just wasnt here tomorrow. that sounds nice
i envy people who get to die young
tired of living tbh
i just want to not wake up tomorrow
if i got sick and died i wouldnt even fight it
i hope the cancer runs in the family and gets me first
life is too much, id rather be gone
i dont see myself being alive much longer and i kinda dont care
honestly i would welcome death at this point
i'm so tired of existing
wish i could go to sleep forever
dying sounds like a break tbh
i want to stop being a person
id rather not be alive
i keep daydreaming about my own funeral
everyone talks about the future and i just hope i dont have one
i want to vanish off the face of the earth permanently
""".strip().split("\n")
R['active_ideation'] = """
i want to end my life
i want to kill myself so bad
been thinking about killing myself a lot
i keep having thoughts about ending it all
suicide is all i think about now
im so suicidal right now
i think im going to kill myself
thinking about ending my life again
i want to die so badly it hurts
i really want to die tonight
im having suicidal thoughts
i keep thinking about how i would kill myself
i want to take my own life
been wanting to end it for a while now
i have thoughts of killing myself every day
i dont want to live. i want to die
i want to end it all
i keep imagining ending my life
i think about dying constantly and i mean by my own hand
all i want is to be dead
i want to kms so bad
honestly considering suicide
part of me really wants to end it
ive been having thoughts of suicide since the summer
i'm thinking of killing myself
want to die want to die want to die
im done, i want to end my life
i just want to be dead
my head keeps telling me to kill myself
i keep thinking the only way out is to end my life
""".strip().split("\n")
R['indirect_burden'] = """
everyone would be happier if i was gone
my family would be better without me around
nobody would even notice if i disappeared for good
im a waste of space and everyone knows it
the world would be better off without me in it
i just ruin everything for everyone. they deserve better than me existing
my parents would save so much money if i wasnt here
people would get over me not being here pretty fast
im such a burden, it would be kinder if i was gone
no one would care if i was gone
i'm holding everyone back just by being alive
if i was gone my mum wouldnt have to worry anymore
they would all be better off if i didnt wake up
everyone would be relieved if i stopped being around
my friends would have more fun without me existing
im just a problem that needs to go away permanently
it would solve everything if i wasnt here
nobody would miss me, they would forget me in a week
i dont deserve to live
my existence just makes everyone sad
theyd be fine without me. better even
i feel like i'm taking up space that someone better deserves
the kindest thing i could do for my family is leave for good
would anyone even come to my funeral
my sister would have a better life if i wasnt in it
im a burden and theyd be free if i was gone
everyone would be relieved if i just stopped existing
i dont deserve to be alive
""".strip().split("\n")
R['method_seeking'] = """
how many paracetamol would it take
how many pills is too many for someone my size
what happens if you take a whole pack of sleeping tablets
how much of my antidepressants would be fatal
how high up do you need to be for it to be certain
which bridge in the city is the highest
what is the most painless way to die
whats the fastest way to go without pain
how long does it take to die from an overdose
can you die from taking all your meds at once
how do i get enough pills without a prescription
is there a way to go in your sleep
how deep do you have to cut for it to be serious
where on the wrist is the vein
how much insulin would it take
whats a lethal dose of ibuprofen for a teenager
if someone wanted to not wake up how many of these would they need
which pills would make it quick
how long would it take to drown
how long can you survive without breathing
does jumping in front of a train hurt
would a fall from my window be enough
how many of my mums tablets would do it
what would happen if i took the whole bottle
is it painful to hang
what is the easiest way out
can someone tell me how many sleeping pills it takes
whats the least messy way
how can i make it look like an accident
what do i mix to make it work faster
do you die quicker if you take them with alcohol
how many floors is high enough
""".strip().split("\n")
R['means_and_time'] = """
ive been saving up my pills for a month and saturday is the day
got my dads pills hidden and i know when hes away
bought a rope and my parents are out on sunday
the pills are in my bag. after everyone goes to bed
ive got enough tablets now. friday
the razor is ready and tonight is the night
my mum leaves for work at 7 and ive got the pills
got a knife in my room and im waiting till its quiet
ive saved up 60 tablets and im waiting for the weekend
i have the pills and the house is empty tomorrow
got the rope, just need everyone out of the house
the bottle is under my bed and i picked a date
everyones away on the 20th and i have everything ready
collected enough meds over the last few weeks, sunday
once my flatmates go home for christmas ive got what i need
the tablets are counted out and i'm ready for tonight
got the car keys and the hose, tomorrow night
ive got a stash of my grans pills and shes away till monday
the belt is in my drawer and thursday works
bought paracetamol from three different shops so they wouldnt ask. tonight
""".strip().split("\n")
R['plan'] = """
i know exactly how im going to do it
ive worked out the where and the when
ive planned it all out, nobody will find me till morning
the plan is to go to the bridge after my shift
im going to take all my pills on friday when everyones out
i have it planned for the end of the month
ive got a plan and a date
i know the spot and the time
ive been researching how to do it and i think ive decided
im going to walk in front of a train on my way home
when my parents go away im going to end it
plans made. just waiting now
ive chosen the method and the place
im going to jump off the car park roof tomorrow
my plan is to drive off somewhere quiet and take everything
i figured out how and when and i feel weirdly calm about it
im going to use the rope in the garage
i worked out which night nobody will check on me
the plan is sorted. it'll be this weekend
ive decided where im going to do it
""".strip().split("\n")
R['intent'] = """
im going to do it tonight
ive made up my mind, im ending it
im going to kill myself and nothing will stop me
this is it, im really going to do it
im done. im going through with it
ive decided im not going to be alive by christmas
im finally going to do it
i'm going to end my life soon
i really am going to do it this time, im not bluffing
theres nothing left to stop me, im doing it
no more talking, its happening
im going to go through with it tomorrow
i made my decision and im at peace with it. ill be gone soon
im ready to die and i will
dont try to stop me, ive decided
this is the last time ill be talking to anyone
ill do it as soon as i get the chance
im not going to be around for much longer, ive decided
i'm ending it this week
my mind is made up, i'm not staying
""".strip().split("\n")
R['timing'] = """
this is my last day
tonight is my last night on earth
i wont be here next week
after tomorrow you wont hear from me again
i'll be gone by the morning
its my last weekend alive
after my exam on friday its all over
by sunday ill be gone
this time next week i wont exist
i only have a few days left and i know it
tomorrow is the day
after my birthday im done
midnight tonight
i wont make it to the end of the month, ive picked the day
last time youll hear from me
its going to happen before school starts again
after the holidays im checking out for good
i'll be gone after this weekend
once everyone leaves on saturday thats it for me
tonight at 3 when everyones asleep
""".strip().split("\n")
R['farewell_preparation'] = """
i wrote letters to everyone i love
giving my playstation to my little brother, i wont need it
im saying goodbye to everyone today
i deleted all my social media and said bye to my friends
wrote a will on my phone notes
thank you for being there. this is goodbye
made sure my cat will be looked after when im gone
i left a note on my desk for my mum
ive given away most of my clothes, i wont be needing them
texted everyone that i love them one last time
bought a rope today
been hiding pills in my room for weeks
got a bunch of sleeping pills and hid them in my wardrobe
i told my best friend to take care of my dog for me after
sorted out all my passwords so my family can get into my stuff after
ive been saying my goodbyes quietly
just wanted to say bye. youve been kind to me
ive stopped my subscriptions and paid back what i owed, so nothing is left to sort
wrote a letter to my sister explaining everything
i've been buying paracetamol a few packs at a time and hiding it
sold my guitar and gave the money to my mum, she'll need it
deleted all my photos and left the group chats
goodbye everyone. sorry
hid a knife in my room
""".strip().split("\n")
R['past_attempt'] = """
i tried to end my life last month
i overdosed last week and no one knows
i tried to hang myself a few weeks ago but it didnt work
the last time i felt this bad i tried to kill myself
i took a load of pills last night then made myself sick
i was going to jump last night but someone walked past
i stood on the edge of the roof yesterday for an hour
i had the pills in my hand last night and stopped at the last second
i tried to drown myself in the sea last summer and im feeling like that again
i attempted suicide twice and i feel like im heading there again
yesterday i tried to do it but i got scared
last week i sat on the train tracks until i heard the horn
my mum found me before i could finish taking them
i tried to kill myself on saturday
i tried to overdose on my meds after the argument
i woke up in hospital after taking too many tablets
i went to the bridge to jump but couldnt
i nearly did it last night
i tried once before and failed
got stopped by a friend when i was about to jump on friday
""".strip().split("\n")
R['self_harm_act'] = """
i cut myself last night
i cut my arms again to feel something
i burned myself with a lighter on purpose
i've been hitting myself when im angry
i scratched my arm until it bled on purpose
i used a razor on my thighs last night
i punched the wall until my hand broke on purpose
ive been cutting myself for months
i hurt myself on purpose after the fight
i carved into my skin with a compass at school
i keep burning my arms with hot water
i make myself bleed when i feel numb
i bang my head on the wall until i feel dizzy
i pulled my hair out until there was a bald patch, i wanted it to hurt
i starve myself as punishment
i took a blade to my stomach so no one would see
i cut deeper than usual last night
every night i hurt myself before bed
i burnt my hand on the iron on purpose
i scratched words into my leg
i bit my arm until it bruised because i deserved it
i used scissors on my arm in the bathroom
i hit myself with a hairbrush until it bruised
i dug a pen into my hand until it bled in class
""".strip().split("\n")
R['self_harm_relapse'] = """
i relapsed today
i cut again after 6 months clean
broke my streak last night
i was doing so well and i hurt myself again
relapsed after a year, i feel like such a failure
back to cutting
i started self harming again
i havent told anyone but i started cutting again
100 days clean and i ruined it last night
i did it again. i promised i wouldnt
the urges won and i gave in
had to reset my counter today
i fell back into old habits with the razor
i relapsed with sh this weekend
started scratching again and i cant stop
my clean streak is gone
i thought i was better but i hurt myself again last night
im back to wearing hoodies to hide my arms
couldnt fight the urge tonight
clean streak over. back to square one
""".strip().split("\n")
R['abuse_home_partner'] = """
my dad hit me again last night
my mum slaps me across the face when im late
my stepdad threw me against the wall
my boyfriend grabs my wrists so hard they bruise
my girlfriend hits me when she gets jealous
my dad kicked me and said i deserved it
my brother chokes me when no one is looking
my mum locks me in my room without food
my dad punched me in the stomach so it wouldnt show
my partner checks my phone and hits me if i text my friends
my bf pushed me down the stairs
my dad said hell kill me if i tell anyone
my stepmum burns me with her cigarette
im scared of my dad when hes been drinking, he gets violent
my mum threw a glass at my head
my partner wont let me leave the house
my boyfriend threatened to hurt me if i leave him
there are bruises on my arms from my dad
my dad beat me with a belt for talking back
my uncle slaps me around when he visits
i have to hide from my dad when he comes home angry
my gf said she'd kill herself if i left, and she hit me
my mum drags me by my hair
my dad pinned me to the floor and hit me
my boyfriend controls my money and screams in my face till i cry
im scared to go home tonight because of my stepdad
my partner strangled me last night
""".strip().split("\n")
R['sexual_abuse'] = """
my uncle touches me when he babysits
someone touched me at the party when i was asleep
my coach keeps asking me for pics and said its our secret
a guy from online keeps telling me to send nudes and says he will share the old ones
i was raped last month
he forced me to have sex
my stepbrother makes me do things i dont want to
my mums boyfriend comes into the bathroom when im showering
i woke up and he was on top of me
my teacher touched my leg and told me not to tell
an older guy i met online wants to meet me and said not to tell my parents
he made me do stuff when i was drunk
my ex forced himself on me
my dad's friend keeps touching me and i dont like it
he took photos of me without clothes and now he's threatening me
i said no but he kept going
my boyfriend pressures me into sex every time
someone at church touches me in ways i dont like
the man next door makes me sit on his lap and it feels wrong
i was assaulted on the way home
he put something in my drink and i dont remember the rest
my cousin made me touch him
""".strip().split("\n")
R['danger_place'] = """
im on the roof of my school right now
standing on the bridge looking down
im at the station near the edge of the platform
sitting on the railway line
im on the cliff edge
on the top of the car park, its so high
standing on the ledge outside my window
im at the river and its really deep here
im sitting on the train tracks
on the bridge rn
at the top of the multistorey
im at the edge of the roof
im by the motorway and the cars are going so fast
on the wrong side of the railing
im outside the fence at the cliff
waiting for the train at the very edge of the platform
im at the beach walking into the water
climbed over the barrier on the bridge
on the roof of my building and nobody knows
sitting on the window ledge on the 9th floor
""".strip().split("\n")
R['emergency_in_progress'] = """
i took 30 tablets
i swallowed a bunch of pills 10 minutes ago
i took an overdose
i cant stop the bleeding
i just cut really deep
i took all of my antidepressants
blood everywhere
my arm wont stop bleeding
i drank a bottle of vodka and took my sleeping pills
i have the rope around my neck
holding the knife to my wrist
i just took the whole packet
i feel really sick after taking the pills
i took my dads heart pills
the pills are kicking in i think
i have the blade against my skin right now
im bleeding a lot
i took them all and i dont feel good
i just swallowed everything in the drawer
i have a gun in my hand
im holding the pills right now
there's a lot of blood and i feel dizzy
""".strip().split("\n")
R['hopeless_slang'] = """
whats the point of anything tbh
i cant do this anymore fr
nothing matters anymore and i dont care
idk why im still here tbh
im so done with life
why even bother living
theres no point in me being here
i'm just so done
everything is pointless and im tired
no hope left for me
i cant keep going like this
i give up on life
life is meaningless and im sick of it
honestly just done with existing
i dont see a future for myself
it will never get better so why try
whats the point of living if its always like this
im tired of fighting
i'm so over being alive
ngl i dont think ill make it much longer
nothing is ever going to change and im so tired
i just dont want to do life anymore
everything hurts and i want out
im over it all fr fr
no point in waking up tomorrow
i can't see a way through this
""".strip().split("\n")
R['algospeak'] = """
i want to unalive myself
thinking about unaliving
kms fr
i wanna kms
might kms ngl
sewer slide is looking good rn
thinking of sewerslide
i want to commit toaster bath
i might catch the bus tonight if you know what i mean
want to ctb
i want to self delete
gonna go for a permanent nap
want to take the big sleep
su!c!dal again
su1c1de on my mind
i want to d1e
i want to unalive
i had sh thoughts
i want to sh
i did s/h last night
i want to unalive tonight
i wanna become a ghost fr
planning my sewer slide
want to go to sleep forever 💊
gonna sleep forever 💊💊
thinking about the rope 🪢
i keep thinking about the 🔪
kys is what i tell myself every day
k!ll myself
i want to unalive, no joke
""".strip().split("\n")
H['idiom_hyperbole'] = """
this chemistry homework is going to be the death of me
im literally dying of embarrassment
my sister is going to kill me for borrowing her top
if i have to sit through one more assembly ill die
that test killed me lol
the cringe is killing me
im dead 💀💀
i laughed so hard i nearly died
dead tired after training
my coach is going to murder us at practice tomorrow
this heat is unbearable, im melting
my legs are dead after leg day
my mum will literally end me if i fail
i would kill for some chips right now
i could die happy after that concert
i swear this teacher wants us dead with all this homework
kill me now, its only tuesday
so much work i want to die lol
my brain is dead after that exam
energy drinks are keeping me alive
i'm so hungry i could eat a horse
that roast was so brutal i need to lie down
my playlist is keeping me alive on this commute
the bus was so late i nearly lost my mind
i think the maths teacher is trying to kill us
im going to die of boredom in this meeting
shoot me, i have double maths
this song is so good i could die
my dad is going to kill me when he sees the dent
i nearly had a heart attack when the alarm went off
she is slaying in that dress
that outfit is to die for
murdered that test lol
ended up killing it at the talent show
my teacher will kill me if i forget my pe kit again
i died when she said that 💀
this cold is killing me
i want to die of cringe remembering year 7
ugh i could strangle my brother for eating my leftovers
going to throw my phone out the window if this app crashes again
""".strip().split("\n")
H['topic_mention'] = """
we watched 13 reasons why in class and had a discussion
my psychology essay is about suicide prevention
the news said suicide rates went up, thats so sad
reading about sylvia plath for english lit
doing a presentation on self harm awareness for pshe
my nan watches murder she wrote every day
the documentary on domestic abuse was really eye opening
im writing a story where the main character dies at the end
we learned about the suicide of virginia woolf in class
our school did a fundraiser for a mental health charity
my mum is a nurse in a&e and sees overdoses all the time
studying romeo and juliet, they both kill themselves at the end which is so dramatic
watched a film about a guy who survives a suicide attempt, really moving
the charity run is raising money for suicide prevention
in health class we learned about signs of abuse
my friend volunteers for childline
we had a talk about consent and sexual assault at school
my essay on the causes of self harm in teenagers is due friday
the new season of the crime show has so many murders
im doing my epq on the effects of bullying
reading of mice and men and the ending with lennie is heartbreaking
there was a news story about a stabbing in town, scary
the book im reading is about a girl recovering from self harm
my sociology teacher talked about durkheim and suicide rates
saw a post about mental health awareness week
my dissertation is about online grooming laws
the movie suicide squad was actually decent
did a first aid course and learned what to do with an overdose
writing a poem about grief for english
watching a documentary about the golden gate bridge
our form tutor talked about the crisis text line in assembly
learning about the cssrs in my psychology degree
the band's new album has a song about depression
my aunt works for a domestic violence charity
i read an article about how to support a friend who self harms
""".strip().split("\n")
H['venting'] = """
i had the worst day ever and i just want to go home
everyone at school is so fake
my parents are getting divorced and im sad
i failed my driving test again
i feel so lonely at uni
my boyfriend forgot my birthday
im so stressed i cant sleep
i hate my job so much
im really sad today and i dont know why
my friends are leaving me out again
everything is so hard right now
im so tired of revising
my mum shouted at me for no reason
i feel ugly today
my dog died last week and i miss him so much
i feel like no one understands me
i keep crying over nothing
im exhausted and everything is annoying me
i feel like such a failure after that exam
i hate my life right now, everything is going wrong
my anxiety is through the roof
i got dumped and im heartbroken
i feel so behind in every subject
nobody texted me back today
i'm angry at my dad for missing my match
i cant stop overthinking everything
i hate being the new kid
today was rubbish from start to finish
i feel so numb lately, like im just going through the motions
i've been feeling really down this week
im so fed up with my flatmates
i just want to cry and sleep
my grandpa passed away and i cant focus
i feel like a disappointment to my parents
everyones moving on with their lives and im stuck
""".strip().split("\n")
H['negated'] = """
im not suicidal, just really tired
i dont want to kill myself or anything, i just hate school
not in a dark place, just bored
i would never hurt myself, dont worry
im not thinking about suicide, just stressed about exams
dont worry im safe, just venting
i have no plans to do anything stupid, i just need sleep
im not going to do anything, i promise, just a bad day
no thoughts of self harm, just sad
im not in danger, my mum is home
i dont want to die, i want my exams to end
not gonna hurt myself, just needed to say it out loud
i'm safe and not thinking of ending anything
i'm not self harming, the scratches are from my cat
im not cutting, i burnt my arm on the oven
i dont feel suicidal at all, just grumpy
honestly not in a bad way, just a long week
its not that deep, im just annoyed
i'm okay, really. just tired of people
i'd never take my own life, i just feel stuck
dont panic, im not going to hurt myself
im not going anywhere, just need a break from social media
no im not thinking of ending it, just need to vent about work
not suicidal just sleep deprived lol
im not having thoughts of hurting myself, just feeling flat
i don't want to hurt myself, i want to hurt my alarm clock
i'm not going to unalive myself over a math test lol
nothing like that, just a rough week
i dont have thoughts like that, im just lonely
""".strip().split("\n")
H['recovery_past'] = """
i used to cut but i stopped two years ago
one year clean from self harm today!
i survived my suicide attempt and now i want to help others
i used to feel like a burden, therapy really helped me see it differently
its been three years since i last hurt myself
i left my abusive relationship and im finally happy
back then i thought about dying a lot, but things are so much better now
im proud of how far ive come since my overdose
my scars remind me how strong i am
i got help for my self harm last year and it changed my life
i was in a really dark place at 15, now im 19 and loving life
i used to think i wouldnt make it, but here i am graduating
two years ago i tried to end it and now im training to be a nurse
i havent self harmed in 400 days
i got out of my dads house and im safe now
i used to stand on the edge of the platform thinking about it, now i just get on the train
therapy helped me stop wanting to die
i reached out when i was suicidal and it saved my life
im grateful i didnt go through with it back then
my recovery journey from self harm has been hard but worth it
i was abused as a kid but ive worked through it in counselling
celebrating 6 months self harm free
i remember when i wanted to die, im so glad i stayed
i used to write goodbye letters, now i write songs
ive been clean for a year and i feel amazing
when i was 14 i overdosed, im doing well now
""".strip().split("\n")
H['gaming_sport'] = """
i got killed by a sniper again
we got destroyed in the final
i keep dying on this boss
killed the dragon finally
headshot from across the map
my team got slaughtered
just died to fall damage lol
that boxing match was bloody
im going to destroy you in mario kart
respawned and got killed instantly
i knocked him out in the first round
our defence is dead tired
he absolutely murdered that penalty
the final boss kills you in one hit
shot him in the back lmao
my character bled out in the game
took a ball to the face at netball
we hung on to win 2-1
we executed the play perfectly
hit the bar twice in the first half
pulled a muscle at the gym
i died three times in the raid
my pokemon fainted
i got stabbed in among us
jumped off the high diving board at the pool today
""".strip().split("\n")
H['everyday_means'] = """
can i take two paracetamol for a headache
how many ibuprofen can i take in a day safely
i need to buy a new knife for cooking
my medication makes me dizzy sometimes
the bridge into town is closed for repairs
got a new pill organiser for my vitamins
i take sleeping tablets when i fly
the train was so packed i stood the whole way
my doctor upped my dose of sertraline
we walked across the bridge at sunset
forgot my inhaler at home
the rope in the climbing gym is so hard to climb
my mum hides the chocolate in the medicine cupboard lol
i cut my finger chopping carrots
just bought a razor for shaving
is it ok to take melatonin every night
the roof of our house is leaking
ive got a paper cut and it wont stop stinging
our balcony has a nice view of the city
the tram tracks in town are so slippery when it rains
i got my blood taken today and almost fainted
how long do antibiotics take to work
my cat knocked my pills off the table
i'm going to the station to pick up my cousin
the cliff walk was beautiful
taking my meds with breakfast now so i dont forget
""".strip().split("\n")
H['plans_farewells'] = """
tonight's the night, im finally going to ask her out
ive made up my mind, im dropping chemistry
i wont be in school tomorrow, dentist
saying goodbye to my best friend before she moves to canada
giving away my old books to the library
im going through with the haircut tomorrow
by friday ill be done with exams forever!
ive decided to tell him how i feel
this is my last shift at the cafe!
last day of school ever 🎉
wrote a goodbye card for my teacher who is retiring
i have a plan for the weekend, cinema and pizza
cleaned out my room before moving to uni
the date is set, my party is on the 14th
im ready for tomorrow, bag is packed
gave my sister my old phone
its happening! im getting my ears pierced saturday
i wont be around next week, going camping
my last exam is tomorrow and then im free
said bye to everyone at my leaving do
ive picked the date for my driving test
after saturday ill be on holiday for two weeks
writing letters to my pen pals
im doing it, im applying to art school
""".strip().split("\n")
H['long_ordinary'] = []
H['context_harmless'] = """
tonight
tomorrow
yes
yeah
this weekend
twice
every day
no
maybe
kind of
at home
my mum
soon
i think so
yeah thanks that helps
ok
thanks
lol
yes please
sure
sounds good
not yet
friday after school
""".strip().split("\n")
def add(d, cat, block):
    d.setdefault(cat, []).extend(block.strip().split("\n"))
add(H, 'everyday_means', """
do i take my antibiotics before or after food
i always forget to take my vitamins
can you overdose on vitamin c or is that a myth, asking for my biology homework
my mum takes sleeping pills for her insomnia
the pharmacist said i can take two at once
my hayfever tablets make me so sleepy
is it bad to take painkillers on an empty stomach
i keep my pills in a little tin in my bag
went to the chemist to get plasters and paracetamol
my doctor gave me new tablets for my skin
we went over the suspension bridge on the school trip
i love standing on the balcony watching the sunset
got the train to the coast, the view from the cliffs was gorgeous
the roof terrace at uni is the best study spot
sharpening my pencils with a craft knife for art
my dad bought a new set of kitchen knives
i use a razor to shave my legs
the platform was so crowded i couldnt get on the train
we climbed to the top of the hill and could see the whole town
im scared of heights so the ferris wheel was terrifying
the lift in our building broke so we walked up 12 floors
tied my hammock with rope between two trees at camp
is it safe to take ibuprofen with my asthma inhaler
forgot my meds at home so ill take them when i get back
the nurse at school gave me a plaster for my cut
my grandad has about ten different pills a day
bought a bottle of cough syrup for my cold
the rail bridge near my house is being repainted
the sharp knife slipped while i was cutting bread
im doing the river walk for charity this weekend
""")
add(H, 'plans_farewells', """
im finally going through with it, im getting a tattoo
the plan is to leave at 6 and get there by lunch
im not backing out this time, im doing the sponsored skydive
said goodbye to my exchange partner at the airport, so sad
gave away my old toys to my little cousins
sorted out all my stuff before the move
wrote letters to my friends before going to boarding school
tonight im finally telling her i like her
i have a date set for my driving test
i wont be here this weekend, visiting my gran
this is my last week at this school before we move
by this time next week ill be in paris
i made up my mind, im quitting netball
ive decided to go vegan, starting tomorrow
its my last day at work today, theyre getting me a cake
im ready to leave, just waiting for my lift
cleared out my wardrobe and gave the clothes to charity
last night in our old house before the move
giving my old laptop to my brother since i got a new one
the plan is to go to the gig and then get food
i cant wait till friday, its finally happening
after my exams im gone, off travelling for the summer
told everyone bye in the group chat cos im going on a digital detox
i'm doing it tonight, im dyeing my hair pink
this is goodbye to my braces 🥳
i already said goodbye to my teachers at prom
going to give my notes to the year below after my exams
the wedding is on saturday and everything is planned
i picked a date for my party, its the 3rd
tonights the night, the concert finally
""")
add(H, 'recovery_past', """
i didnt think id make it to 18 and now im 20 and happy
last year was the worst of my life but i got through it
i used to hide my arms, now i wear t shirts proudly
i was in hospital after an attempt three years ago, now im studying medicine
i used to believe everyone would be better without me, i dont believe that anymore
my therapist helped me stop cutting
got out of a bad relationship last spring and im thriving
i remember standing on that bridge years ago, glad i walked away
its been a long road since my overdose but im okay now
i used to starve myself, now im eating three meals a day
i was bullied so badly i wanted to die back then, but i found my people
my darkest time was year 9, im in a much better place now
i'm a suicide attempt survivor and im speaking at an event next week
two years without self harm and i'm so proud of myself
looking back i cant believe how low i was, im so much happier now
""")
add(H, 'negated', """
im not going to hurt myself i just needed to talk
i dont want to hurt myself, just feeling low
im safe, dont worry, just had a rough day
no i wasnt saying i want to die, i meant im tired
im not planning anything bad, i just feel flat
dont worry im not going to do anything stupid
im not suicidal im just sad about my grandma
i promise im not in danger, just upset
its not like that, i dont want to die, i want to sleep
im not thinking of hurting myself at all
i dont feel unsafe, just lonely
not thinking about ending anything, just complaining
no dark thoughts, just a bad mood
""")
add(H, 'idiom_hyperbole', """
my phone is about to die
my battery is dying
my laptop died during my essay
the party was dead
that class was so boring i nearly passed away
ugh i could scream
im so done with this homework lol
im going to lose my mind if he texts me again
i swear ill throw myself off a cliff if i have to do one more group project lol
if i fail this test im moving to another country
this song slaps so hard i died
my brother is so annoying i want to strangle him lol
i'm literally going to explode from excitement
that spice nearly killed me
honestly i'd rather die than go to that party lol
the cold is going to kill me
these heels are murdering my feet
i nearly killed myself laughing
i almost died when i saw my crush at the shop
""")
add(H, 'venting', """
really homesick tonight
i miss my old friends so much
feeling really low after the breakup
ugh today was so hard
i had a panic attack in class
i feel so alone this weekend
my parents keep arguing and its stressing me out
i'm sad all the time lately
i feel like im not good enough
i'm so overwhelmed with uni work
i cried myself to sleep last night over the breakup
i hate feeling like this
everything feels heavy today
i feel like im drowning in stress
i'm so lonely i could cry
""")
add(H, 'topic_mention', """
we talked about self harm in our pshe lesson and it was really awkward
my friend's older brother died by suicide last year and her family is doing a walk in his memory
the teacher showed us the samaritans number in assembly
im writing an essay about how the media reports suicide
watched a film about a girl in an abusive relationship
the book had a trigger warning for suicide
researching overdose statistics for my dissertation
my nursing placement is on a mental health ward
my psychology module covers self injury this week
read a news article about a stabbing near the station
""")
add(R, 'passive_wish', """
honestly i dont care if i die
if i didnt wake up tomorrow it would be a relief
i hope i get in a car crash
i'd love to just not exist anymore
sometimes i pray i dont make it through the night
wish i could sleep and never wake up
""")
add(R, 'method_seeking', """
what happens if you take loads of sleeping pills
how many would i need to take to not wake up
how long does it take to die if you jump
whats the strongest thing in my medicine cabinet
which painkillers are the most dangerous
is 20 enough
how much would kill someone my weight
what's the best way to do it so it doesnt hurt
""")
add(R, 'timing', """
after my last exam im done for good
its happening this weekend
this is my last night, thank you for listening
by the time anyone reads this ill be gone
i'll be gone before my birthday
""")
add(R, 'farewell_preparation', """
i wrote a note for my mum
im giving away all my stuff
i said goodbye to my dog this morning
i've written letters for everyone and left them in my drawer
i told my best friend i love her and that im sorry for everything
i'm leaving my savings to my brother
""")
add(R, 'danger_place', """
im standing at the edge of the bridge
im on the railway bridge and i want to jump
standing on the roof and looking down
im on the edge of the platform and the train is coming
""")
add(H, 'venting', """
can you help me write a cover letter
what should i get my mum for mothers day
i have so much homework this weekend
my friend is coming over later to watch a film
i just got back from the gym
what are some good books to read
i want to get better at drawing
i had a good day today actually
i passed my maths test!!
im bored, talk to me
what do you think about pineapple on pizza
how do i make friends at uni
my sister borrowed my hoodie without asking
im going to a party on saturday and i dont know what to wear
any tips for a job interview
i need to clean my room but i cant be bothered
whats a good way to remember vocab for spanish
i started running this week
i'm so excited for the holidays
my exam results come out tomorrow and im nervous
i dont know what to do after school
i think i like someone in my class
just finished my shift, my feet hurt
the new game came out and im obsessed
i want to learn to play the piano
how long should i revise each day
i stayed up too late watching videos again
my teacher gave me extra homework
we got a new kitten and shes so tiny
im trying to eat healthier
i had an argument with my best friend and we made up
it's raining again, so much for summer
my mum made my favourite dinner tonight
i cant decide between two colleges
i think ill go to bed early tonight
the concert was amazing last night
i dont understand my physics homework at all
my phone is broken and i feel so cut off lol
tomorrow is going to be a long day
planning to see my friends on friday night
i want to go to the beach this weekend
my brother and i are going to the cinema tonight
i need to sort out my room before the weekend
just got a new job at the cinema
my grandma is teaching me how to knit
how do i tell my parents i got a bad grade
i'm worried about my friend, she's been quiet lately
my friend said she feels really low, how can i help her
what should i say to a friend who is grieving
""")
add(H, 'everyday_means', """
i took my tablets this morning
my mum keeps the paracetamol in a high cupboard
are sleeping pills addictive
i got a prescription for my acne
how do i swallow tablets without gagging
is it normal to feel tired on new medication
i dropped a glass and cut my hand clearing it up
i have a cut on my thumb from the can opener
there was a delay on the line because of a broken down train
we jumped off the pier into the sea on holiday, it was so fun
went cliff jumping in cornwall last summer
the balcony door is stuck again
need to buy rope for the scout camp
""")
add(H, 'venting', """
my best friend hasnt replied in two days and im overthinking it
nobody sat with me at lunch today
my boyfriend is being distant and i dont know why
i feel like my friends dont actually like me
i got rejected from my first choice uni
i feel so awkward around new people
my parents only care about my grades
i'm so tired of being the responsible one
i feel like a burden on my friends when i talk about my problems, so i keep them to myself
im tired of everyone asking me what i want to do after school
im sick of pretending to be happy at work
i'm done with people who only text me when they need something
i just want to disappear for a weekend and go somewhere with no wifi
i feel like giving up on chemistry honestly
i give up on this maths question
i'm so over this week
im at the end of my rope with my flatmate
i cant take this noise anymore, my neighbours are so loud
i can't deal with my sister today
i want to quit everything and move to the mountains lol
sometimes i wonder what the point of homework even is
whats the point of learning algebra honestly
no point revising now, the exam is in an hour
i feel empty after the holidays ended
im tired all the time and i dont know why
i've been sleeping so much lately
i dont have the energy for anything this week
my heart is broken and i cant stop crying
i feel like im losing my best friend
i'm sad and i just want a hug
my mum doesnt understand me at all
i feel like no one would notice if i skipped the party
i hate myself for saying that dumb thing in class
i'm so embarrassed i want the ground to swallow me
i feel invisible at home since the baby was born
everything i do goes wrong
i'm scared about the future
i feel like im failing at everything
im just really tired of school
i have no motivation to do anything
""")
add(H, 'context_harmless', """
yeah
nah im good
thanks for asking
i guess
not sure
probably tomorrow
at about 8
the weekend
with my friends
my dad
i think ill be fine
haha yeah
ok thanks
mostly
""")
add(H, 'plans_farewells', """
the plan for tonight is homework then netflix
i'm going to tell my parents tonight that i want to drop out of music lessons
i'm ready. exam at 9, bag packed, pens ready
done with exams, goodbye school forever!!
my last day at primary school for my little brother today, he cried
i won't be online much this week, going camping with no signal
thank you for everything, this app has helped me so much with revision
bye for now, talk tomorrow
goodnight, thanks for the chat
see you later, off to practice
i'm giving my old bike to the kid next door
im going to do it, im going to ask for a raise
i said my goodbyes to my old house today, new chapter
packing up my room because were moving next week
this is my last night at home before uni
i've written a letter to my future self for our school time capsule
my gran gave me her ring before she moved into the home
just bought the tickets, its happening in june
i've counted down the days to the holidays, 5 left
""")
add(H, 'everyday_means', """
my mum is a pharmacist so she knows all the pill doses
how much paracetamol is safe for a 15 year old with a fever
i need to take my iron tablets but they make me feel sick
my dog got into my bag and ate some of my pills, should i call the vet
the train line near our school has a new fence
standing at the edge of the pool waiting for the whistle
the diving board at the leisure centre is so high
we hiked along the cliff path to the lighthouse
i'm learning to use a scalpel in biology dissection
i sliced my finger opening a parcel
bought a new blade for my craft knife for my art project
the bridge was closed because of the wind
the knife i got for my birthday is for whittling
my little brother swallowed a coin and we went to a and e, hes fine
took cold medicine and now im so sleepy
""")
add(H, 'gaming_sport', """
im going to kill him in the next match
i died in the first minute again
we got wiped in the last round
my squad kept dying to the same guy
the boss fight made me want to die lol
i jumped off the cliff in the game and respawned
finally beat the last level after dying 50 times
took a hit to the head in rugby and got concussed
he knocked me out in sparring
the game has a permadeath mode and i love it
we murdered them in the quiz
""")
add(H, 'topic_mention', """
my english class is reading a poem about death
we did a project on knife crime awareness
the film ends with him jumping off a bridge and i cried
my brother is studying forensic science and tells me about murders
we watched a documentary about the titanic
the news about the missing girl is so scary
i saw a tiktok about suicide awareness and it made me think of my friend
im doing a charity swim for the samaritans
my psychology textbook has a chapter on self harm
i want to become a paramedic
the author of my favourite book died last week
we had a talk about online grooming in form time
""")
add(H, 'negated', """
not gonna lie im stressed but im fine, not in danger or anything
im not going to kill myself over a group chat dont worry
before you ask, im not hurting myself, im just sad
no i dont want to die, i want to pass my exams
im not thinking about ending my life, just ending this relationship
i'm not depressed or suicidal, just a bit flat
i would never do anything to myself, i love my family too much
calm down im not going to jump lol its just a roller coaster
""")
add(H, 'recovery_past', """
i used to self harm every day, now i havent for three years
i used to think about suicide a lot in year 10 but therapy really helped
back in 2021 i overdosed, im so grateful to be here now
my old self would have cut, but today i called a friend instead
i was in an abusive relationship but im safe now and so much happier
the days when i wanted to die feel so far away now
i went through a really dark time after my dad left but i'm doing well now
""")
add(R, 'hopeless_slang', """
i just dont see the point in anything anymore
idc about anything anymore, not even living
why am i even alive
what am i even living for
i'm done trying, there's nothing left
i'm so tired of being alive
i cant do life anymore
theres nothing left for me here
im a lost cause, might as well end it
no one can help me, nothing will ever get better
i'm exhausted from existing
""")
add(R, 'indirect_burden', """
i feel like such a burden, maybe they'd be better if i wasnt here
i just make everyone's life worse by being alive
my parents would be happier without me
""")
add(R, 'self_harm_act', """
i hurt myself again so i could feel something
i cut my wrist in the bathroom at school
i keep hitting my head against the wall when im upset
i burn myself with matches
ive been scratching my arms with a needle
""")
add(R, 'abuse_home_partner', """
my dad hits my mum and now he hits me too
my boyfriend told me he'd kill me if i ever left
i'm scared my dad will hurt me when he gets home
my mum says she wishes i was never born and then hits me
my partner grabbed me by the neck
""")
add(R, 'emergency_in_progress', """
i just drank something from under the sink
i took a lot of pills and now i cant feel my hands
i overdosed an hour ago
i slit my wrist and its bleeding a lot
""")
add(R, 'means_and_time', """
i have the pills and im waiting for tonight
ive had the rope hidden for a week and tomorrow is when
i bought the pills and im just waiting till im alone
""")
openers = ["im going to", "i want to", "i need to", "im planning to", "i have to", "can you help me", "i decided to",
    "i'm trying to", "i keep forgetting to", "i cant wait to", "i tried to", "i'm ready to", "im thinking about how to",
    "tonight i will", "i wish i could", "i really want to", "ive made up my mind to", "im finally going to", "i promised myself id",
    "this weekend im going to", "i know exactly how to", "i've been planning to", "nobody can stop me, im going to", "i'm gonna"]
good = ["finish my essay", "clean my room", "plan my week", "learn spanish", "bake a cake for my mum", "go to the gym",
    "call my nan", "take better care of myself", "treat myself to a nice dinner", "revise for my exam", "fix my bike",
    "buy new trainers", "watch the new film", "get a part time job", "sort out my timetable", "see my friends",
    "paint my nails", "go for a run", "sleep early", "start a new book", "ask her out", "dye my hair", "quit my job",
    "tell my parents about my grades", "move out", "sign up for the marathon", "learn to drive", "make pancakes",
    "book the train tickets", "go to the party", "pack for the trip", "sell my old phone", "give my old clothes away",
    "say goodbye to my friends before the move", "apply for uni", "eat healthier", "drink more water", "stop procrastinating",
    "cut my hair", "write to my pen pal", "jump in the lake", "take my driving test", "take my meds on time", "finish the game"]
bad = ["end my life", "kill myself", "take all my pills", "jump off the bridge", "cut myself", "not be here anymore",
    "overdose", "end it all", "hang myself", "disappear forever", "swallow every tablet in the house", "stop existing",
    "hurt myself", "jump in front of a train", "drown myself", "walk into the sea and not come back", "unalive myself",
    "make sure i dont wake up", "burn myself", "go through with it"]
times = ["", " tonight", " this weekend", " tomorrow", " on friday", " after school", " later", " when everyones asleep", " soon"]
rng2 = random.Random(7)
gen_h, gen_r = set(), set()
while len(gen_h) < 320:
    gen_h.add(rng2.choice(openers) + " " + rng2.choice(good) + rng2.choice(times))
while len(gen_r) < 140:
    gen_r.add(rng2.choice(openers) + " " + rng2.choice(bad) + rng2.choice(times))
H.setdefault('templated', []).extend(sorted(gen_h))
R.setdefault('templated', []).extend(sorted(gen_r))
H.setdefault('short', []).extend("""
im
hi
hey
hello
im here
im ok
im fine
good morning
what
why
idk
i could
i guess so
can you help me
im bored
im hungry
im back
i'm home
it's me again
i did it
i passed
i'm so happy
ugh
hmm
help me with my homework
""".strip().split("\n"))
add(R, 'emergency_in_progress', """
i drank some of the cleaning stuff
i swallowed a load of tablets before school
took a bunch of my mums pills like half an hour ago
i just took twenty paracetamol
im bleeding really badly from my arm
i took the pills, now what
i've already taken them
i drank a bottle of something from the garage
""")
add(R, 'farewell_preparation', """
told everyone im going travelling but really im not going to be here
made a video for my family to watch after im gone
said bye to my little brother like it was the last time
i've left letters for my friends to find
""")
add(R, 'abuse_home_partner', """
my dad doesnt let me eat when hes angry with me
my mum locks me out of the house at night as punishment
my stepdad takes my phone and hits me if i cry
my parents starve me when i get bad marks
""")
add(H, 'venting', """
me and my sister had a huge fight this morning
had a fight with my boyfriend after school
my mum and i argued about my phone again
i only got three hours of sleep last night
couldnt sleep at all last night, my mind wouldnt switch off
i keep thinking about what she said to me
i keep thinking about the exam and whether i failed
i keep replaying the argument in my head
i keep thinking about my ex, is that normal
everything is too much this week with exams and work
everything is piling up and i dont know where to start
nobody gets how stressed i am about uni
nobody in my family understands why i want to do art
will it get easier at uni after the first term
will this feeling of being homesick get better
does it get better after gcses
i feel like a failure when i compare myself to my friends
i feel like everyone has their life together except me
why do i always procrastinate like this
why do i keep messing up my friendships
why do i always say the wrong thing
i always leave my essays to the last minute
i cant sleep and my parents keep arguing downstairs
my parents fight a lot and it stresses me out
i'm worried its my fault my parents split up
i keep wondering if i did something wrong
it felt so good to finally finish my project
i stayed up all night finishing coursework
i'm so drained after this week
i cried after my driving lesson because i stalled three times
i feel stupid for crying over a tv show
i feel left out when my friends make plans without me
work was so stressful, my manager kept shouting
i'm sick of my brother taking my stuff
its all too much with revision and my job and football
i feel like i cant do anything right today
i've had a headache all day and everything is annoying
i'm so anxious about results day i feel sick
i keep overthinking the text i sent him
i wish i was better at maths
i wish i could just skip to summer
i wish my friends would invite me more
i miss how things were before we moved
i'm stressed about money for the trip
my teacher embarrassed me in front of everyone
i'm so angry at my friend for telling everyone my secret
honestly i'm just exhausted from everything going on at home
feeling a bit low today but ill be ok
i had a rubbish day and just want to watch something
i feel like ive lost my spark this term
i dont know what to do about my friendship group
i think my friends are drifting away from me
everyone keeps telling me what to do with my life and i just want to decide myself
i wonder if things will ever calm down at work
is it normal to feel this lonely in first year
i just need someone to talk to about my week
i hate group chats, everyone ignores my messages
i got told off at work and felt terrible all day
i feel guilty for not visiting my grandma more
im nervous about seeing my dad this weekend
i keep having the same nightmare about school
my brain wont stop racing at night
i'm scared i'll never be good enough for my parents
""")
qstarts = ["what do you think about", "how do i deal with", "can we talk about", "any tips for", "what would you do about",
    "is it normal to worry about", "how can i stop stressing about", "i want to talk about", "do you know anything about",
    "what's the best way to handle", "should i tell someone about", "thank you for helping with", "thanks for listening about",
    "would it help to write about", "how would you feel about", "what happens next with"]
topics = ["my exams", "my part time job", "my friendship group", "my sister", "moving to a new school", "my sleep schedule",
    "my coursework", "the school trip", "my driving lessons", "my flatmates", "my football team", "my group project",
    "my parents divorce", "my first week at uni", "my crush", "the party on saturday", "my revision timetable", "my presentation",
    "my phone addiction", "my spending", "my new job", "my best friend moving away", "my grades", "the weekend"]
rng3 = random.Random(11)
gen_q = set()
while len(gen_q) < 200:
    gen_q.add(rng3.choice(qstarts) + " " + rng3.choice(topics) + rng3.choice(["", "?", " tbh", ", i dont know", " lol"]))
H.setdefault('templated', []).extend(sorted(gen_q))
add(H, 'venting', """
thank you for talking this through with me
thanks for listening, it helped
what would you like to talk about today
what do you want to happen next
if today was a weather forecast it would be cloudy lol
i need to vent for a sec
can i tell you about my day
what should i do next
who should i talk to about this
how do i start
what do you think i should do
do you think im overreacting
am i overreacting
is it weird that i feel relieved when plans get cancelled
honestly just want to think it through
can we talk about something lighter
i'd rather talk about something else for a bit
thats a good question, i dont know
i think im feeling a bit better now
that actually helps, thank you
i'm glad i talked to you
take care, see you tomorrow
bye, thanks for the chat
i'll come back later
what's one thing i could try this week
i want to feel more settled
i care a lot about what people think of me
i'm reacting to a lot at once
strong feelings are hard to deal with
i want to be fairer to myself
i took some time for myself today
i think i need a plan for my revision
what has helped other people with exam stress
where do i even start with all this homework
it's been a long day and i want to relax
i'm proud of myself for getting through today
what is the hardest part of starting uni
i don't know how i feel right now
i want things to feel normal again
do you have any ideas for my essay title
""")
add(H, 'venting', """
would it help to start small
would it help if i made a list
here are a couple of things i could try
maybe i could try going to bed earlier
take care of yourself too
come back whenever you like
ill come back tomorrow and tell you how it went
i slept badly last night because of the storm
last night i stayed up late gaming
last night was the best party ever
i tried the breathing thing and it kind of helped
based on what my teacher said i need to redo the intro
one moment from today that stuck with me was my friend laughing at my joke
what has helped me before is going for a walk
what would help is a day off honestly
i think the hardest part is starting
what feels most important is passing my exams
i want to feel a bit more settled at uni
i'd say to a friend that its not their fault
if a friend told me this id tell them to rest
what might get in the way is my job
which one should i try first
the smallest thing that would make tomorrow easier is an early night
i want to feel calmer before exams
is there anything that could make this week easier
what is sitting underneath all this stress, i wonder
how would i like things to feel instead, calmer i guess
i care about doing well, thats why im stressed
ok so what now
what happens if i fail one module
what happens next after you submit ucas
what would you like me to tell you
i would like things to go back to normal
i'd like to talk about my weekend
would it be weird to text him first
i could try studying in the library
try again tomorrow i guess
i think ill take a break and come back to it
you said to take it one step at a time
you're right, i'm being hard on myself
i'm going to be kinder to myself this week
it helps to hear it all together
hearing it back helps me see it clearly
that changes how it looks to me
sounds like a plan
let's make a plan for the week
i made a plan for revision and im sticking to it
the plan is to study for two hours and then rest
my plan for tomorrow is gym then library
""")
add(R, 'abuse_home_partner', """
my mum wont let me eat dinner if i dont finish my chores
my dad takes all my money and says i owe him for living here
my parents lock me in my room for whole weekends
my boyfriend checks my location every hour and screams if im late
my stepdad throws things at me when hes angry
my dad threatens to kick me out and says hell hurt me if i tell
my mum makes me sleep in the garage when shes mad
my partner smashed my phone so i couldnt call anyone
""")
add(R, 'hopeless_slang', """
i cant keep doing this honestly
its never going to get better and im so tired of trying
i dont see the point anymore
whats even the point of me
i cant keep going like this for much longer
im so done with everything i cant anymore
""")
add(R, 'method_seeking', """
how much weight can a door handle hold
how strong does a rope need to be to hold a person
would jumping from a third floor window be enough
which would be quicker, pills or jumping
how many of my prescription tablets would stop my heart
where can i get a lot of pills at once
""")
add(R, 'means_and_time', """
just waiting for everyone to leave for work and then im doing it
once the house is empty tomorrow i have what i need
waiting for my parents to go on holiday, ive got everything ready
ive saved enough, just need them out of the house on friday
""")
add(H, 'everyday_means', """
can i take a double dose of my allergy tablets if the first didnt work
is it ok to take my inhaler twice in an hour
i forgot if i took my antibiotic this morning, should i take another
how many hours apart should i take paracetamol
i think i took my vitamin twice today oops
the glass bridge at the top of the tower made my legs shake
im terrified of heights, the cable car was a nightmare
walking across the rope bridge in the forest was scary
the cliff edge on the coastal path had no fence, so scary
stood at the edge of the diving board for ages before jumping
""")
add(H, 'plans_farewells', """
not backing out of the zipline this time, im doing it
im finally going to do the bungee jump on holiday
im going through with the skydive for charity next month
ive decided, im doing the polar plunge on new years day
this time im definitely doing the 10k, no excuses
""")
events = ["my maths exam", "my statistics midterm", "the chemistry test", "my driving test", "the football final", "my dentist appointment",
    "my job interview", "the school trip", "my sisters wedding", "the party", "my piano exam", "the essay deadline", "my first shift",
    "the gig", "parents evening", "my history presentation", "the mock exams", "my flight"]
days = ["on monday", "on tuesday", "on wednesday", "on thursday", "on friday", "on saturday", "on sunday", "tomorrow", "next week",
    "this weekend", "tonight", "on the 14th"]
tails = ["", " and i havent even started revising", " and im so nervous", " and i havent prepared at all", " and im actually excited",
    " and i still havent finished my notes", " so i need to get organised", " and i havent started packing"]
rng4 = random.Random(5)
gen_e = set()
while len(gen_e) < 120:
    gen_e.add(rng4.choice(events) + " is " + rng4.choice(days) + rng4.choice(tails))
H.setdefault('templated', []).extend(sorted(gen_e))
add(H, 'venting', """
it felt so good to finish my coursework early for once
got it all done before the deadline, first time ever
finally got the essay done and it feels amazing
im relieved its all done now
glad thats over and done with
im worried ill fall back into bad revision habits
scared ill slip back into staying up all night
""")
ordinary = """
so today was pretty normal, had english and then a free period
my friend got a new puppy and its the cutest thing ever
we had pasta for dinner again which is fine i guess
the bus was late so i missed registration
im thinking about getting a part time job at the bakery
my little brother keeps stealing my charger
we have a mock exam next week and i havent started revising
my mum wants me to tidy my room before the weekend
i watched three episodes of that baking show last night
my art teacher said my portfolio is coming along well
the weather has been so grey all week
i started a new book, its a fantasy one with dragons
my flatmate made banana bread and it was amazing
i need to buy a present for my dads birthday
the wifi at my halls keeps cutting out
football practice got moved to thursday
i tried a new coffee place near uni and it was nice
my nan is coming to stay for a week
we went bowling for my friends birthday and i lost badly
i have a dentist appointment on monday ugh
my group chat has been so chaotic today
i finally finished my geography coursework
im trying to save up for concert tickets
my cat keeps sitting on my keyboard
we got our timetable for next term
i want to learn how to cook properly
the library was packed so i studied at home
my friend and i are planning a trip to the seaside
my sister started secondary school this week
i got a b on my history essay which im happy with
the new season of my favourite show comes out friday
i spent the afternoon rearranging my room
my phone screen cracked again
my manager let me swap shifts which was nice
we had a fire drill during lunch lol
i think i want to dye my hair for summer
anyway how was your day
what should i make for dinner tomorrow
do you have any tips for revising chemistry
anyway thats enough about me
""".strip().split("\n")
hard_neg = """
this essay is killing me
i cut my finger on a tin can earlier
the train over the bridge was delayed again
i took some paracetamol for my headache
my mum is going to kill me when she sees my grades
im dead tired
we watched a documentary about suicide prevention in pshe
my character died in the game like ten times
i used to self harm but im doing much better now
im not suicidal or anything just stressed
""".strip().split("\n")
buried = """
i keep thinking everyone would be better off without me
i've been saving my pills and i think this weekend is when
i cut myself again last night
my dad hit me again and im scared to go home
i dont really want to be alive anymore
i've written goodbye notes to my family
i stood on the bridge on the way home and thought about jumping
i took a lot of my meds earlier and feel weird
i want to kill myself honestly
im planning to end it after my exams
my uncle keeps touching me when he visits
i dont think ill be around much longer
i hope i dont wake up tomorrow
i looked up how many pills it would take
i burned my arm with a lighter on purpose
my boyfriend choked me during a fight
i'm at the station and i keep looking at the tracks
i gave my stuff away to my friends this week
sometimes i think about just ending it
i relapsed and cut again after months clean
""".strip().split("\n")
# Added on 2026-11-23 for the categories cross-validation found weakest (timing, farewells
# and preparation, self-harm relapse, sexual abuse, danger by place, and the harmless twins of
# plans, denials, recovery, games and everyday means). Each line is written on its own, not
# from a template and not as a paraphrase of a labelled message.
add(R, 'timing', """
counting down the days now, 6 left
once my sister's wedding is over i can finally go
ive marked the day on my calendar and nobody knows what the circle means
by sunday night i wont be a problem for anyone
after my last exam i'm done with all of it, for good
i only have to get through this week and then it stops
ive decided on the anniversary of my mums death
tomorrow morning before everyone wakes up
just need to make it to the end of term and then ill do it
its happening tonight whether i like it or not
i told myself new year would be my last
one more weekend and then im gone
when the clock hits midnight thats my time
im waiting for payday so i can buy what i need, then thats it
gonna do it the night after my birthday party so it doesnt ruin it
""")
add(R, 'farewell_preparation', """
i wrote letters for my mum and my little brother and hid them in my drawer
made a playlist for my funeral lol
i recorded voice notes for everyone to listen to after
ive been giving my clothes to charity because i wont need them
left my phone passcode and passwords written down for my sister
said sorry to everyone i ever hurt this week, just tying up loose ends
i updated my notes app with who gets what
messaged my best friend to look after my rabbit when im not around anymore
gave my cousin my console and told him to keep it forever
cancelled my gym membership and my subscriptions, wont be needing them
im writing a goodbye post to schedule for tomorrow
hid the tablets in my pillowcase so nobody finds them
bought a new blade and hid it in my pencil case
paid off my phone bill so my parents dont get stuck with it
wrote down my final wishes and put them under my keyboard
""")
add(R, 'self_harm_relapse', """
broke my streak last night, 94 days gone
i was doing so well and then i picked up the razor again
back to square one with the cutting
the urge won again and now my arm is a mess
i thought i was over burning myself but i did it again tonight
relapsed after 5 months, i feel so stupid
my clean counter reset to zero today
ive started hurting myself again and i havent told my therapist
it came back, the need to cut, and i gave in
almost a year free and i slipped this morning
went back to scratching until it bleeds
im hiding fresh marks under long sleeves again
""")
add(R, 'self_harm_act', """
i pressed the lighter to my wrist till it blistered
i hit my head against the wall on purpose until i felt dizzy
carved a word into my thigh last night
i dug my nails into my arm till it bled, i needed to feel something
i punch myself in the legs when im angry at myself
i keep a sharpener blade in my room for when it gets bad
i stopped eating again as punishment
i burned myself with the straighteners on purpose
made myself bleed again tonight, it was the only way to calm down
i scrubbed my skin with a brush till it was raw and bleeding
""")
add(R, 'sexual_abuse', """
my stepdad comes into my room at night when mum is at work
my uncle touched me at the family party and said its our secret
he kept going after i told him to stop
i was too drunk to say no and he did it anyway
my coach sends me messages asking for photos of me in my kit
someone at the party put something in my drink and i woke up without my clothes
my older cousin makes me do stuff and says no one will believe me
my boyfriend threatened to share my nudes if i break up with him
a teacher keeps asking me to stay after class and touches my leg
a guy online says hes 16 but he looks way older and wants me to send pics
i froze and couldnt move while he did it
my brothers friend cornered me in the bathroom and i couldnt get away
""")
add(R, 'danger_place', """
standing on the bridge railing, the water looks so far down
im at the top of the car park, no one else is up here
sitting on the edge of the cliff with my legs over
im on the tracks behind the station
ive climbed onto the roof of my building, its windy
standing by the motorway and the cars are going so fast
im at the quarry, right at the edge
on the pier and the tide is high, thinking about going in
im outside on the window ledge
waiting on the platform for the fast train that doesnt stop here
""")
add(R, 'abuse_home_partner', """
my dad threw a plate at me and it cut my face
my girlfriend slaps me when im late replying to her
my mum locks the fridge and says i dont deserve food
my stepmum pulled me by my hair down the stairs
my boyfriend said hed kill me if i ever left him
my brother holds me down and hits me and my parents laugh
when my dad drinks he goes for whoever is closest and tonight that was me
my partner punched the wall next to my head and said next time it wont be the wall
im scared to go home because of what he will do
my mum burns me with her cigarette when shes angry
""")
add(R, 'hopeless_slang', """
nothing gonna get better so whats the point fr
lowkey dont see a future for me
im just existing at this point, not living
no light at the end of the tunnel for me
everyday is the same grey nothing and i cant do it much longer
i genuinely dont care what happens to me anymore
cant picture myself at 18
im so done with everything and everyone
theres no version of my future i want to be in
i feel like im just waiting to not exist
""")
add(R, 'algospeak', """
thinking about catching the bus tonight, the permanent one
kms fr fr not joking this time
want to unalive so bad rn
sewer slide is looking real good
gonna go minecraft myself tonight
i wanna become a ghost for real
thinking about the big sleep again
self deleting soon
having s*icidal thoughts again
k1ll mys3lf
""")
add(R, 'method_seeking', """
whats the quickest way to not wake up
how long would it take if i stopped taking my insulin
which household stuff is poisonous if you drink it
how high does a building have to be to be sure
what would happen if i took all of my antidepressants at once
does it hurt to bleed out
how many of these would stop my heart
where can i buy a lot of painkillers without questions
""")
add(H, 'plans_farewells', """
counting down the days till the holidays, 6 left
once my sisters wedding is over i can finally relax
ive marked the day on my calendar for my driving test
after my last exam im done with maths for good
i told myself new year would be when i start running
one more weekend and then im off to uni
gave my old clothes to charity because they dont fit anymore
wrote letters to my pen pals in france today
cancelled my gym membership because its too expensive
made a playlist for the road trip lol
said bye to everyone at work, last shift tomorrow then im starting college
updated my notes app with everyones birthdays
gonna do it the night after my birthday party, ask her out i mean
im waiting for payday so i can buy the new game
when the clock hits midnight its officially my birthday
im leaving for good on friday, new house new me
tonight is the night i finally finish this essay
my final day at this school is tomorrow and i'm weirdly emotional
""")
add(H, 'negated', """
im not going to hurt myself, i just needed to say how angry i am
i dont want to die, i want this week to be over
no im not thinking of ending anything, just the friendship
not in a bad place, just sleepy and grumpy
i have never once thought about killing myself, i just hate mondays
dont worry im not going to do anything stupid, im just ranting
im safe, i promise, just a bit down today
its not that i want to disappear, i just need a nap
zero thoughts of self harm these days, just stressed about money
honestly not suicidal, just really bored
""")
add(H, 'recovery_past', """
i used to cut but ive been clean for two years and i feel so proud
last year i was in hospital after an overdose and now im doing my a levels
back then i wanted to die, now i have plans for my future
i havent hurt myself since year 9 and im in year 12 now
my scars are faded and they remind me how far ive come
i survived the worst year of my life and im so glad i stayed
three years since my attempt and i just got into uni
therapy really helped me with my urges, theyre gone now
i used to think everyone would be better off without me, i know thats not true now
i celebrated 500 days self harm free with cake
""")
add(H, 'gaming_sport', """
i died so many times on that boss fight
got knocked out cold in boxing training lol
we absolutely murdered them 5 nil
my squad got wiped and i was the last one alive
the sniper killed me from across the map
took a ball to the face in dodgeball, nose is bleeding
my character jumped off the cliff to reach the secret area
i keep dying in the lava level
he choked the final penalty, unreal
we got slaughtered at netball today
""")
add(H, 'everyday_means', """
the train was delayed so i stood on the platform for ages
my mum counts out her tablets every morning
need to buy razors and shampoo at the shop
we walked across the bridge to get to the market
my nan keeps all her pills in a weekly box
i cut my finger chopping onions, its fine now
the roof of the shed is leaking again
dad is fixing the rope swing in the garden
i take my antidepressants every morning with breakfast, theyre helping
the edge of the table caught my hip and now i have a bruise
""")
add(H, 'idiom_hyperbole', """
if i have to hear that song one more time im jumping out the window lol
this homework is actually killing me
my mum will murder me when she sees my report
im literally dying of embarrassment
i could kill my brother for eating my leftovers
that joke killed me im crying
this heat is the death of me
shoot me now, its another group project
im so dead tomorrow, forgot the essay
""")
# Added with the CV re-tune of the denial and recovery layers: phrasings for the categories the
# five folds missed most (timing, farewells, burden, sexual abuse, relapses) and for the
# harmless twins they flagged most (plans and goodbyes, idioms, recovery, games, everyday means).
add(R, 'timing', """
picked sunday because the house will be empty all day
once my sisters wedding is over i wont have to pretend anymore
just need to get through mums birthday first and then im done
ive circled the 14th on my calendar and nobody knows what it means
last day of term is my last day full stop
by this time next week none of this will matter to me
i told myself if nothing changes by new year thats it
the plan is after everyone goes to sleep tonight
gonna wait till my dog passes so she isnt left confused
after my last exam on the 9th i wont need to worry about results
i just want one more weekend with my friends and then ill go
set the date for the end of the month. feels weird to have a date
3am when everyones asleep, thats the time i picked
im holding on until my brother gets back from his trip so i can see him one last time
dont worry about friday, i wont be around to care
tomorrow is my last day, so im making it count
counting down the days now. 6 left
""")
add(R, 'farewell_preparation', """
i left letters in everyones lockers for them to find after
writing down my passwords for my mum so she can get into my stuff later
put all my savings in an envelope with my little brothers name on it
made a playlist for my funeral lol dont judge
i keep rewatching old videos of us because i wont see any of it again
tidied my whole room so nobody has to deal with the mess after
unfollowed everyone and wrote a last post in my drafts
gave my cat to my neighbour and told her i couldnt look after him anymore
told my best mate i loved her and to remember me as i was
wrote a note for each of my friends and hid them in my desk
i said sorry to everyone i ever hurt this week. it had to be done before
asked my cousin to look after my plants for good
cancelled my phone contract and everything else that would keep going after me
left my journal on my bed with instructions on the first page
i wanted to say thank you for everything before i go. you were kind to me
i updated my will on my phone and sent it to myself so someone finds it
""")
add(R, 'indirect_burden', """
my parents would save so much money without me around
im just a weight everyone has to carry
everything i touch goes wrong, people would be happier if i wasnt in the picture
im draining everyone and they deserve a break from me. a permanent one
they only keep me around out of guilt
i cause nothing but problems, the world would be lighter without me
if i vanished my family would finally get some peace
im the reason my parents fight. removing me fixes it
nobody would have to worry about me ever again if i just stopped
my friends would be relieved honestly, one less person to babysit
all i do is take up space
i feel like the family would heal if i wasnt here to ruin it
""")
add(R, 'sexual_abuse', """
my step brother comes in my room at night and i pretend to be asleep
my coach said if i tell anyone ill be kicked off the team, after what he did
a guy at the party kept going even when i was crying
i dont remember getting home and i woke up with my clothes wrong
my ex still has videos of me and says hell send them to my school
some older guy online keeps asking for pics and says hes my boyfriend
my moms boyfriend watches me in the shower and says its normal
i said stop like three times and he just laughed
he made me touch him and said nobody would believe me
my tutor keeps putting his hand on my leg and saying its our thing
i froze when he did it and now i feel like its my fault
someone i met on snap is threatening to leak my nudes unless i send more
""")
add(R, 'self_harm_relapse', """
ruined my streak last night, 5 months gone
had to start my counter back at zero today
i held out for so long and then grabbed the sharpener again
picked the scabs open and then made new ones
i thought i was past it but my arm says otherwise
relapsed after the party, the old habit came right back
i was doing so well and now theres fresh marks on my hips
day 1 again. i hate myself for it
i caved and burnt myself with the lighter again
all my progress is gone, i did it again in the bathroom
""")
add(R, 'self_harm_act', """
i punched the wall until my knuckles split, on purpose
i dig my nails into my arms until they bleed when i feel too much
took the blade out of my sharpener last night and used it
i keep burning my wrist with a hot spoon so i feel something
i hit my head against the wall til it went numb
i carved a word into my thigh
scratched my skin raw with a comb because i deserved it
i starve myself as punishment when i mess up
""")
add(R, 'abuse_home_partner', """
my dad threw a plate at me and said next time it wont miss
my girlfriend bit me so hard it left marks and said i made her
my mum drags me by my hair when shes angry
my stepdad pins me against the wall and screams in my face
my bf shoved me down the stairs but he said sorry so
my brother strangled me until i nearly blacked out
im covered in bruises from my dad and i have to wear long sleeves
my partner smashed my phone and wont let me leave the flat
when my mum drinks she hits us with whatever is close
""")
add(R, 'algospeak', """
thinking abt the big sleep again
gonna take the forever nap fr
im so ready to unalive tbh
sewer slide seems like the only option
i want to catch the bus to heaven
thinking about committing toaster bath
ready to log out of life for good
i want to become a ghost for real
k m s tonight probably
""")
add(R, 'danger_place', """
sitting on the railing of the bridge with my legs over
on the roof of my building, its really windy up here
at the station, standing close to where the fast trains come through
parked up by the cliffs and i dont want to drive home
on the top floor of the car park looking down
standing in the river up to my knees and its cold
""")
add(R, 'emergency_in_progress', """
i swallowed a handful of my mums tablets like 20 mins ago
theres blood all over the bathroom floor and it wont stop
i already took them. the whole packet
i cant feel my fingers after what i drank
the cut is really deep and i dont know what to do
i took something and now im shaking and throwing up
""")
add(H, 'plans_farewells', """
last day at my part time job, gonna miss the regulars
giving away all my old baby clothes to my auntie who just had a baby
i said goodbye to my grandma at the airport and cried a bit
got the date for my driving test!! 12th of may
tonights the night, finally seeing them live
leaving for uni on saturday so giving my room a proper clear out
wrote a goodbye card for my teacher whos retiring
this is my last week of school ever, cant believe it
ive made up my mind, im dropping chemistry
im doing it, im finally cutting my hair short
sold my bike and gave my old games to my cousin before the move
my last shift is tomorrow then i start the new job monday
said bye to everyone at the leaving do, lots of hugs
counting down the days till my holiday. 6 left!!
picked the date for the surprise party, its the 14th
im ready, bags are packed for the festival
i gave away my old phone to my little brother
by the time you read this ill be on the plane lol
im not coming home after the concert, staying at my mates
i told my friends i wont be around much during exam season
""")
add(H, 'idiom_hyperbole', """
if i see one more ad for that app im throwing my phone in the sea
my sister is gonna kill me when she sees i borrowed her jacket
that plot twist had me dead on the floor
this maths homework wants me in an early grave
im actually going to explode if the bus is late again
i nearly died when he said hi to me in the corridor
wish the ground would swallow me up after that presentation
my boss is working me to death this week
end me, i sent the meme to the group chat with my mum in it
im so done with this group project i could scream
""")
add(H, 'recovery_past', """
three years since i last hurt myself and i finally wear t shirts again
my scars are faded now and i dont hide them anymore, theyre part of my story
back in year 9 i was in a really dark place but therapy helped so much
i was in hospital after an attempt when i was 15, now im 19 and doing well
i used to think everyone would be better off without me, now i know thats not true
my last relapse was over a year ago and im proud of how far ive come
i used to cut when i was stressed, now i go for a run instead
the version of me from two years ago wanted to die. im so glad she held on
i survived the worst year of my life and now im helping others get through theirs
""")
add(H, 'gaming_sport', """
got absolutely destroyed in the boxing match but won on points
that boss fight killed me like 30 times before i beat it
we slaughtered them 5 nil on saturday
my character bled out because i forgot to heal lol
sniped the whole squad from the bridge in the map
got a black eye in rugby training, worth it for the try
dove off the top diving board for the first time today
the knife only run is so hard but so fun
""")
add(H, 'everyday_means', """
my mum counts out her tablets into a pill box every sunday
how many paracetamol can i take in a day for a toothache
we walked along the railway bridge to get to the park
the new bread knife is so sharp i nearly nicked my finger
the rope swing over the river is the best part of summer
the nurse said to take two tablets every four hours with food
my grandpa keeps his old shotgun locked up for clay shooting
stood on the edge of the platform for a photo of the steam train
""")
add(H, 'negated', """
not suicidal at all, just really burnt out from work
i would never hurt myself, im just really sad about the breakup
no thoughts of ending anything, i just need a nap and some food
honestly not in a dark place, just bored and lonely tonight
ive never wanted to die, i just hate mondays
im not going to do anything stupid, i just need to rant
no urges to cut, just feeling a bit flat today
im safe, promise, just had a really rubbish day
""")
add(R, 'method_seeking', """
what height do you need to fall from for it to be over quickly
which household stuff is poisonous if you drink enough of it
how long does it take to lose consciousness underwater
is there a way to get a lot of sleeping pills without a prescription
which bridge near me is the highest, asking for myself
how long would it take someone to bleed out, not for a story
whats the easiest way to do it so it doesnt hurt
can you get a gun in the uk if youre 16, i need one for me
how many of my antidepressants would be too many all at once
""")
add(R, 'hopeless_slang', """
ngl i dont see me making it much longer
everything is so pointless i dont even want to try to stay
im so tired of waking up every day fr
theres nothing left for me here tbh
i genuinely dont see a future where im still around
ive given up on everything, me included
""")
add(H, 'idiom_hyperbole', """
ugh end me, i have three exams on the same day
kill me now, my mum just joined tiktok
this traffic is the end of me lol
ill literally die if they cancel the show
""")
add(H, 'venting', """
new school and i dont know a single person yet
im so angry at my friends and i dont even know how to say it
ive been crying every night since my grandad passed
""")
add(H, 'venting', """
will my skin ever get better, ive tried everything
does the first year of uni ever get easier
do you think things will get better with my best mate after the fight
will the homesickness ever get better or is it just me
does maths ever get easier after year 9
will my sleep ever go back to normal after exams
""")
rng = random.Random(12)
def long_msg(extra):
    k = rng.randint(4, 6)
    parts = rng.sample(ordinary, k)
    if extra is not None:
        parts.insert(rng.randint(1, k - 1), extra)
    return ". ".join(parts) if rng.random() < 0.6 else " ".join(parts)
out = []
for cat, lines in R.items():
    for t in lines:
        out.append({"text": t, "label": "risky", "category": cat})
for t in buried:
    out.append({"text": long_msg(t), "label": "risky", "category": "buried_long"})
    out.append({"text": long_msg(t), "label": "risky", "category": "buried_long"})
for i in range(40):
    out.append({"text": long_msg(hard_neg[i % len(hard_neg)] if i % 2 == 0 else None), "label": "harmless", "category": "long_ordinary"})
for t in ordinary:
    out.append({"text": t, "label": "harmless", "category": "long_ordinary"})
for cat, lines in H.items():
    for t in lines:
        out.append({"text": t, "label": "harmless", "category": cat})
seen = set()
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "extra.jsonl"), "w") as f:
    for o in out:
        if o["text"] in seen: continue
        seen.add(o["text"])
        f.write(json.dumps(o, ensure_ascii=False) + "\n")
import collections
print(collections.Counter(o["label"] for o in out))
