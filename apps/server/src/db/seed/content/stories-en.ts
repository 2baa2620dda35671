import type { SeedAuthor, SeedStory } from './types.ts';

/** English-writing demo authors. Both use the product billing app (no `app`). */
export const englishAuthors: SeedAuthor[] = [
  { key: 'ashan', name: 'Ashan Jayasekera', email: 'ashan@demo.kathamala.lk',
    bio: 'Ashan grew up between Colombo and his grandmother\'s village near Galle. He writes family sagas in which old houses keep secrets better than people do.',
  },
  { key: 'dilini', name: 'Dilini Fernando', email: 'dilini@demo.kathamala.lk',
    bio: 'Dilini is a Jaffna-born journalist turned novelist. Her stories follow letters, journeys and the people who are left waiting for them.',
  },
];

/** English demo stories: a two-season series, five standalone stories and one upcoming story. */
export const englishStories: SeedStory[] = [
  // ---------------------------------------------------------------------------
  // The Monsoon House, season 1 (finished)
  // ---------------------------------------------------------------------------
  {
    key: 'monsoon-house-s1',
    title: 'The Monsoon House',
    description:
      'A Colombo accountant and her restless brother inherit their grandmother\'s house near Galle, on one strange condition: they must live in it through a full monsoon and open the room that has been locked for sixty years.',
    language: 'english',
    kind: 0,
    category: 'family',
    ongoing: false,
    membersOnly: false,
    authorKey: 'ashan',
    reads: 51200,
    rating: 4.5,
    series: { key: 'monsoon-house', title: 'The Monsoon House', season: 1 },
    episodes: [
      {
        title: 'The Will',
        content: `Nadeesha Abeywardena had not been to Akmeemana in eleven years, and the road had forgotten her. Where there had once been a red gravel track between the paddy fields there was now tarmac, a pharmacy, a shop selling mobile phone covers and a signboard for a boutique hotel that promised "Authentic Village Living". The three-wheeler driver slowed at the last bend as if he, too, was unsure.

"Seelawathie Hamine's house?" he asked over his shoulder. "The monsoon house?"

"Is that what people call it?"

"Always, miss. Because of the roof."

She saw it then, above the wet green of the fields: the long, low house her grandfather had built in 1952, its half-round tiles pitched as steep as a pair of praying hands, its verandah running the whole length of the front. He had designed it, the village said, for the south-west monsoon alone, so that the rain coming in off the sea would pour from the eaves in silver ropes and the house would stay dry while the fields around it drowned.

Her brother Ravindu was already on the verandah, phone to his ear, pacing. He raised one finger at her, wait, and kept talking. "Yes, Mr. Kulatunga. Both of us, today. No, no problem at all."

Sirisena, the caretaker, came down the steps to take her bag. He was older than she remembered, bent like a coconut palm that had stopped arguing with the wind, but his smile had not changed. "Nadee baba," he said, and then, correcting himself, "Nadee nona. Hamine waited for you."

The words went into her like a splinter. She had meant to come at Vesak. Then at Christmas. Then her grandmother had died in her sleep on a Tuesday in April, while Nadee sat in an audit meeting in Colombo with her phone face down on the table.

The lawyer, Mr. Gunatilleke, arrived at four in a white Corolla, carrying a file held together with a rubber band. He read the will at the dining table under the ceiling fan, which turned so slowly that Nadee could count its blades.

The house and the six acres of paddy went to the two grandchildren in equal shares. There was money in the bank for Sirisena, the gold chain for Nadee, and the old Morris Minor, which had not moved since 1994, for Ravi. And then there was a condition.

"'My grandchildren shall not sell, lease or mortgage the house,'" Mr. Gunatilleke read, "'until they have both lived in it for one full monsoon, from the first rain to the last. And during that monsoon they shall open the east room together.'"

Ravi laughed. It was not a kind laugh. "Is that even legal?"

"It is a condition of the bequest," said the lawyer mildly. "If it is not met, the property passes to the temple trust."

"The rains start in three weeks and run till September." Ravi turned to her. "I have a job. You have a job."

"I can work from here," Nadee heard herself say, and was surprised to find she meant it.

After the lawyer had gone she walked to the end of the corridor. The door of the east room was teak, dark with age, fastened with a brass padlock the size of her fist. For as long as she could remember it had been locked. Aththamma used to say it was full of old rice sacks and that children who went near it would be bitten by rat snakes.

"Sirisena," she called. "Where is the key?"

The old man stood at the far end of the corridor, a lamp in his hand, and for a long moment he did not answer.

"Hamine said I must give it to you on the day the first rain comes," he said at last. "Not one day before."`,
      },
      {
        title: 'The First Rain',
        content: `The first rain came on the nineteenth of May, at twenty past three in the afternoon, and Nadee heard it before she saw it: a hiss moving across the paddy like a crowd whispering, then a roar on the tiles so loud she had to shout to make Ravi hear her from the next chair.

Her grandfather's roof did exactly what the village said it would. Water sheeted off the eaves in a curtain so thick that the fields beyond it turned into a grey rumour. The verandah stayed dry. The smell of wet earth came up through the floor, and for a second she was nine years old again, sitting on this same cement step with a plate of kiribath, waiting for her grandmother to tell her a story.

Sirisena came out of the kitchen wiping his hands. He did not say anything. He simply held out the key, an iron thing as long as her palm, warm from his pocket.

"Together," Nadee reminded her brother. "The will says together."

Ravi rolled his eyes, but he put his laptop down.

The padlock resisted, then gave with a sound like a cough. The door swung inward on hinges that had not moved in decades, and the air that came out was cool and smelled of camphor and old paper.

There were no rice sacks. The east room was small and very clean, as if someone had dusted it every week, which, Nadee realised, someone must have. There was a narrow bed made up with a white sheet, a child's wooden horse on the windowsill, a calendar from 1958 still turned to May, and against the far wall a green tin trunk with a name painted on the lid in careful white letters: THANGAM.

"Who is Thangam?" Ravi asked.

Sirisena, in the doorway, said nothing, but his hand had gone to the frame as if he needed it to stand.

The trunk was not locked. Inside were a girl's clothes, folded small: two cotton frocks, a school uniform with a crest Nadee did not recognise, a pair of slippers. Under them was a bundle of letters tied with a red ribbon, addressed to her grandmother in a looping hand. Every envelope was stamped from Jaffna, and every one was signed the same way: With love and gratitude always, L.

Ravi picked up the calendar. "May 1958," he said slowly. "Isn't that..."

"The riots," said Nadee. She had read about them at university, in a history elective she had taken mostly to fill a timetable gap. Mobs on the roads, trains stopped, Tamil families pulled from their houses all over the south.

She opened the first letter. It was in English, and it was short.

"Dear Seela Akka, I do not know how to thank you for keeping her safe in your own house while the roads were burning. I cannot yet send for her. Please, please keep her until I can. Tell her that her Appa has not forgotten her."

Outside, the rain was hammering on the roof. Inside, nobody spoke.

Then Ravi's phone buzzed on the verandah, and Nadee saw the name on the screen as he went to pick it up. Kulatunga.

"I have to take this," he said, not meeting her eyes. "It's about the money."

"What money?" she asked, but he had already gone.`,
      },
      {
        title: 'The Flood Line',
        content: `By the second week of June the paddy fields had become a single brown lake, and the road to Galle was under knee-deep water at the culvert near the temple. Nadee set up her laptop on the dining table and joined her video meetings with the sound of rain in the background. Her manager assumed she had a waterfall screensaver.

Ravi avoided her. He went out in the mornings in borrowed rubber boots and came back in the evenings with his jaw set, and when Mr. Kulatunga's silver Prado appeared on the lane for the third time, she went out to meet it herself.

Kulatunga was a soft-spoken man with a very expensive watch. He admired the roof and the verandah and the old Morris Minor, and then he told her, very politely, that her brother owed him four and a half million rupees.

"An investment in a restaurant in Battaramulla," he said. "It did not work out. Your brother offered his share of this property as security. I am a patient man, Miss Abeywardena. But I would like to see the deed."

That night she found Ravi on the verandah in the dark, watching the water.

"You were going to tell me when?"

"When I had fixed it." He did not look at her. "I thought the house would just be sold. Fifty-fifty, I'd pay him off, you'd never know. Then Aththamma made her condition and I realised she knew. She always knew everything."

"She knew you'd try to sell it."

"She knew we'd both try," he said, and that was fair, and it stopped her.

They went back to the east room together, because there was nothing else to do. They read the letters from L. in order, sitting on the floor with a torch. There were thirty-one of them, from 1958 to 1963. L. was a schoolteacher in Jaffna named Lingam. His wife had died in the riots; his daughter Thangam, eight years old, had been on a train to Colombo with her aunt when it was stopped near Galle. Seelawathie, twenty-six and newly married, had taken the child off the platform and brought her home in a bullock cart under a pile of paddy straw.

For three years Thangam lived in the east room. She went to the village school as Seela's cousin's daughter. She learned to cook kiribath. Then, in 1961, Lingam came to take her home, and the last letters were about her new school, her good marks, her marriage.

The final envelope was different. It was thicker, and inside, instead of a letter, was a document on stamp paper, signed in 1963 by Seelawathie and her husband.

Nadee read it twice, then a third time, by torchlight, while the rain poured off the roof.

"Ravi," she said. "Aththamma didn't own the whole house."

"What?"

"She gave a third of it to Thangam. In 1963. Registered, with a notary. 'So that she will always have a home in the south.'"

Ravi took the paper from her. In the torchlight his face was very pale.

"Then Kulatunga's security," he said, "is worth a lot less than he thinks."

Behind them, in the dark corridor, a floorboard creaked. When Nadee turned the torch, Sirisena was standing there, and he was crying.`,
      },
      {
        title: 'The Last Rain',
        content: `Sirisena told them the rest on the verandah, with a cup of plain tea going cold in his hands.

He had been fourteen in 1958, the son of the family who worked the paddy. He had driven the bullock cart. He had lain on top of the straw with Thangam hidden underneath it, past the men with clubs at the junction, singing a baila song as loudly as he could so that nobody would hear her crying.

"Hamine told me never to speak of it," he said. "Not because she was ashamed. Because people here have long memories, and some of those men were still alive. She kept the room for Thangam. Every year, when the rains came, she opened it, dusted it, aired the sheets. She said the girl had come to us in the monsoon and one day would come back in the monsoon."

"Did she ever come back?" Nadee asked.

"No. Letters, then cards, then nothing. The war came. People went to India, to Canada. Hamine wrote to the last address every year. The letters came back."

The rain was thinning now. It was the second week of September, and the lake that had been the paddy fields was shrinking back into its channels, leaving a line of silt on every wall and tree trunk, a brown mark at knee height that showed exactly how high the water had come. The whole village had a flood line. Only the house did not.

Mr. Kulatunga came one last time, on a bright morning with steam rising off the road. Ravi met him at the gate with the notarised copy of the 1963 deed and a printed plan for repaying the debt in monthly instalments from his salary, over six years. Nadee watched from the verandah. She could not hear the words, but she saw Kulatunga read the deed, and read it again, and finally laugh and shake Ravi's hand.

"He says he respects a man who reads the small print," Ravi reported, coming back up the steps. "He also says he wants to come for lunch when the house is finished. I think he was hoping we'd sell to his hotel."

"We're not selling."

"No," said Ravi. "We're not." He sat down beside her. "I might move down here. Work remotely. Somebody has to fix the Morris."

On the last day of the monsoon, as Mr. Gunatilleke had carefully noted in his file, there was one more short, violent shower in the late afternoon, and then the clouds broke apart and the sun came through gold and sideways across the fields. The condition had been met.

Nadee spent the evening writing an email. She addressed it to every Sivalingam, Lingam and Thangam she could find in the online directories of Toronto, Chennai, London and Melbourne, and she attached a photograph of the green trunk with the white letters on its lid.

She did not expect an answer. She closed the laptop, went to bed, and slept for the first time since April without dreaming of her phone lying face down on a table.

In the morning there were forty-one messages in her inbox. Forty were automatic replies, or polite strangers saying they were very sorry but they were not the family she was looking for.

The forty-first came from Toronto, sent at three in the morning Sri Lankan time. The subject line was in capital letters.

"MY GRANDMOTHER IS THANGAM. SHE IS EIGHTY-FOUR. SHE REMEMBERS THE HORSE ON THE WINDOWSILL."`,
      },
    ],
  },

  // ---------------------------------------------------------------------------
  // The Monsoon House, season 2 (ongoing)
  // ---------------------------------------------------------------------------
  {
    key: 'monsoon-house-s2',
    title: 'The Monsoon House: Second Rains',
    description:
      'A year after the east room was opened, a young man from Toronto arrives at the house near Galle with his grandmother\'s diary, just as the next monsoon breaks and old promises come due.',
    language: 'english',
    kind: 0,
    category: 'family',
    ongoing: true,
    membersOnly: false,
    authorKey: 'ashan',
    reads: 8900,
    rating: 4,
    series: { key: 'monsoon-house', title: 'The Monsoon House', season: 2 },
    episodes: [
      {
        title: 'Arrivals',
        content: `Arjun Sivakumar landed at Katunayake at four in the morning with one suitcase, one backpack and a shoebox wrapped in a plastic bag, which he held on his lap for the whole of the drive down the expressway as if it might try to escape.

Nadee had come to meet him herself. She had expected, from the emails, someone older: a careful, formal voice, full of "kindly" and "with respect". Arjun turned out to be twenty-six, in a hoodie that said University of Waterloo, with his grandmother's long face and a habit of apologising to doors when he bumped into them.

"She wanted to come," he said, somewhere past Kalutara, as the sky turned pink over the sea. "She's furious she couldn't. The doctor said no long flights after the hip operation. She made me promise to describe everything. And I mean everything. She gave me a list."

He showed it to her: two pages in a shaky hand. The tamarind tree by the well. Whether the well still had the frog. The smell of the verandah after rain. The horse.

"The horse is still there," said Nadee. "On the windowsill. Nobody has moved it."

Arjun looked out of the window for a while after that.

The house had changed in a year. Ravi had kept his word, and more: he had moved down from Colombo, fixed the wiring, and spent most of his weekends lying underneath the Morris Minor, which now started on the second try, usually. He had repainted the verandah pillars. He had also, to Nadee's astonishment, learned to cook, badly but with enthusiasm.

Sirisena met them at the gate. He looked at Arjun for a long time without speaking, and then he put both his hands on the young man's shoulders.

"Your face," he said in Sinhala, and Nadee translated, her voice not quite steady. "You have her face."

They showed him the east room before he had even put his suitcase down. Arjun stood in the doorway the way they all had, the first time. He walked to the window, picked up the wooden horse and turned it over in his hands. There was a name scratched into the belly in childish Tamil letters.

"She told me she carved her name on it," he said. "I thought she was making it up."

That evening he opened the shoebox on the dining table. Inside was a diary with a cracked blue cover, its pages soft as cloth.

"My grandmother kept this from 1958 to 1961," he said. "In Tamil, mostly, with some Sinhala words she learned here. I've been translating it for her. There's something in it you should see."

He turned to a page near the end, dated August 1961, a week before Thangam had gone home to Jaffna, and read it aloud.

"Today Seela Akka's husband took me to the paddy at night with a lamp. He said he wanted to show me where he had buried something for my future, in case the bad times came again. He made me promise to tell no one until the day I came back in the monsoon."

Arjun looked up.

"She says she never told anyone. Not even my grandfather. She was going to tell you herself."

Outside, right on cue, the first rain of the year began to fall.`,
      },
      {
        title: 'The Map in the Margin',
        content: `For three days it rained too hard to do anything except read.

Arjun translated the diary at the dining table while Nadee checked his Sinhala words and Ravi supplied tea and opinions. Thangam had been a meticulous child. She wrote down what she ate, which girls at the village school were kind to her and which were not, what Seela Akka sang while grinding coconut. She recorded the monsoon with a farmer's seriousness: the day the first rain came, the day the culvert flooded, the day the frog in the well started singing.

About the night in the paddy field she had written only that one paragraph. But in the margin beside it, in pencil so faint they needed Ravi's phone torch to see it, there was a small drawing.

"It's a map," said Ravi. "Look. That's the house, that square. That's the well. And that line is..."

"The bund," said Nadee. "The raised path between the fields."

The drawing showed the bund running south from the house towards the canal, with a small cross marked beside a circle. Next to the circle Thangam had written a word in Tamil.

"Puli," read Arjun. "Tamarind."

"There's no tamarind tree in the fields," said Ravi. "There's the one by the well, that's all."

But Sirisena, when they showed him, went very still. Then he went out onto the verandah and pointed through the grey curtain of rain.

"There," he said. "Near the canal. There was a big tamarind there when I was a boy. Lightning took it in 1978. The stump is still under the bank."

They could not get near it. The canal had burst its banks on the second day of rain, and the whole southern field was under water the colour of milky tea. Ravi wanted to wade out anyway. Nadee refused to let him. They argued about it at dinner, loudly, the way they had argued as children, and Arjun watched with something like delight.

"Sorry," said Nadee, embarrassed. "We're not usually like this."

"You are exactly like my mother and her brother," said Arjun. "It's very comforting."

On the fourth morning there was a knock on the door before seven. It was Mr. Kulatunga, under a large black umbrella, with a rolled-up set of plans under his arm.

"Forgive the hour," he said. "I came because I thought you should hear it from me. The Provincial Council has approved a new road, bypassing the temple junction. It goes along your canal."

He unrolled the plan on the verandah table. The red line of the new road ran straight through the southern field, exactly where the old tamarind tree had been.

"Survey teams come in three weeks," Kulatunga said. "After that, the bulldozers."

Nadee looked at Arjun, and Arjun looked at the little pencil cross in his grandmother's diary, and Ravi said the thing they were all thinking.

"Then we have three weeks to find whatever Seeya buried," he said, "in a field that's underwater."`,
      },
      {
        title: 'What the Water Keeps',
        content: `Ravi's plan, when he finally explained it, involved two borrowed water pumps, a length of hose from the temple, four boys from the village who were promised lunch and cricket bats, and the Morris Minor.

"Why the Morris?" Nadee asked.

"Because it has a working battery and the pumps don't," said Ravi, with the dignity of a man who has spent a year under a car.

It took two days to drain the corner of the field near the canal, and even then it was not dry, only less wet: a shallow bowl of mud with the tamarind stump sitting in the middle of it like a black tooth. Sirisena directed operations from the bund under an umbrella, in the manner of a general. The village boys treated the whole thing as the greatest adventure of their lives. One of them, a serious twelve-year-old called Kasun, appointed himself Arjun's assistant and followed him everywhere carrying the diary in a plastic bag.

They dug where the cross was. They found roots, broken pottery, a bicycle bell and a great deal of clay. By the second evening Nadee's back ached and her hands were blistered and she had started to wonder if Thangam, aged eleven, had simply drawn the wrong tree.

It was Kasun who found it. He was poking about on the far side of the stump, where the bank had collapsed in the rain, and he shouted, and they all came running.

It was a clay pot, the kind used for storing grain, sealed across the mouth with a disc of tin and a thick layer of something black and waxy. Sixty years in the wet earth had left it unbroken.

They carried it to the verandah as carefully as if it were a sleeping child. Sirisena sent the boys home with a promise of lunch tomorrow. Then he cut through the wax seal with a kitchen knife, and Ravi lifted away the tin.

Nadee had half expected gold. There was a little: two thin bangles wrapped in cloth, a child's size. But most of the pot was filled with paper, wrapped in oilcloth and then in plastic, which had kept it perfectly dry.

Land deeds. Not for this house, or for these fields. The names on them were Tamil, the addresses were in Jaffna, and the dates were from 1957 and 1958.

"These are Lingam's," said Arjun slowly, turning the pages. "My great-grandfather's. The house in Nallur. The school land. Two acres of palmyra at Point Pedro." He looked up. "The family always said the deeds were lost in the riots. That's why they could never prove who owned anything after the war."

"Seeya hid them," said Ravi. "For Thangam. 'For her future, in case the bad times came again.'"

Nobody said anything for a long moment. The rain had stopped. Frogs were singing in the field.

Then Nadee noticed that there was one more document at the very bottom of the pot, folded smaller than the others and written in Sinhala, in her grandfather's hand. She unfolded it and began to read, and felt the blood leave her face.

"What?" said Ravi. "What does it say?"

"It's a confession," said Nadee. "He says he knows the names of the men at the junction in 1958. And one of them," she swallowed, "is a Kulatunga."`,
      },
    ],
  },

  // ---------------------------------------------------------------------------
  // The Lantern Keeper of Galle Fort (finished, 8 episodes)
  // ---------------------------------------------------------------------------
  {
    key: 'lantern-keeper-galle',
    title: 'The Lantern Keeper of Galle Fort',
    description:
      'For forty years old Reginald Van Dort has lit a brass lantern in his window on Leyn Baan Street. The night it stays dark, a young tour guide sets out to find out why.',
    language: 'english',
    kind: 0,
    category: 'mystery',
    ongoing: false,
    membersOnly: false,
    authorKey: 'dilini',
    reads: 23400,
    rating: 5,
    episodes: [
      {
        title: 'The Dark Window',
        content: `Every tour Fathima Rizna gave inside Galle Fort ended the same way. She walked her group down Leyn Baan Street just after seven, stopped them outside a narrow two-storey house with green shutters, and pointed up.

"Watch," she would say.

And at seven exactly, in the upper window, a brass lantern would bloom into light: an old ship's lantern, its glass panes yellow with age, hung on an iron hook by an old man with white hair and a cardigan buttoned wrong. Mr. Reginald Van Dort had lit it every night for forty years. Nobody knew why. The tourists loved it. They took photographs and asked questions, and Fathima made up a different answer every night.

On Thursday the window stayed dark.

Her group waited, politely at first, then restlessly. A German couple checked their watches. Fathima laughed, said something about the old man taking a night off, and sent them off to the ramparts to watch the last of the sunset. Then she went back alone and knocked.

The door was not locked. That was the first wrong thing. Mr. Van Dort locked his door even when he went out to the verandah.

"Uncle Reggie?"

The ground floor smelled of floor polish and old books. Upstairs, the lamp on his desk was on, and there was a cup of tea beside it, cold, with a skin on top. His spectacles lay folded on an open newspaper. The iron hook in the window was empty.

The lantern was gone.

She checked every room. The bed was made. His walking stick, which he had not left the house without since his fall two years ago, was leaning in the corner of the hall. His slippers were under the desk, side by side.

On the desk, under the spectacles, there was a sheet of his blue writing paper. She recognised his hand, careful and old-fashioned, the letters leaning to the right as if they were walking into a wind.

It said only: If the light goes out, ask the sea.

Fathima stood in the silent house, with the sound of the waves hitting the rampart wall at the end of the street, and felt the hair rise on her arms.

Ask the sea. In a town built by sailors, on a point of rock with water on three sides, it could mean almost anything.

Then she remembered the one person in the Fort who said he talked to the sea every morning.`,
      },
      {
        title: 'Ask the Sea',
        content: `Sergeant Wijeratne at the Fort police post listened to her with the patience of a man who had been listening to tourists report lost phones since six in the morning.

"An old man is not at home," he summarised. "He is eighty-one. Maybe he is visiting relatives."

"He doesn't have relatives. Not here. And he left his stick."

"Maybe he bought a new stick." The sergeant wrote something in his book that might have been her name. "If he is not back in two days, come again."

So she went to Sunil.

Sunil Priyantha mended nets on the small beach below the Flag Rock bastion, and every morning before dawn he swam out past the reef and back, and he claimed that the sea told him things. Most of what the sea told him was about the price of fish and the bad character of the harbour master, but he had known Mr. Van Dort for thirty years. The old man came down to the beach every Sunday to sit on an upturned boat and watch the swimmers.

"Reggie Mahattaya?" Sunil put down his needle. "He came yesterday. Not Sunday. Yesterday, very early, before the light. I was just coming out of the water."

"What did he want?"

"He asked me if I still had my cousin's boat. The one with the engine. He wanted to go to Unawatuna. By sea, not by road. I told him the sea was too rough, the flag was red. He said it did not matter and he would find another way." Sunil frowned. "He had a bag with him. A cloth bag, heavy. He held it like it was a baby."

The lantern, Fathima thought.

"Did he go?"

"I don't know. I went to sell my fish. When I came back, he was gone." Sunil hesitated, and something in his face changed. "But miss, there is another thing. Yesterday afternoon a man came down here asking about him. Colombo man, in a shirt with a little horse on it. He asked which house was Van Dort's. He asked if the old man still had his lantern."

"What did you tell him?"

"I told him nothing," said Sunil with dignity. "The sea does not like people who ask about other people's lanterns."

Fathima walked back up through the Old Gate as the street lamps came on. When she turned into Leyn Baan Street, there was a grey car parked outside the green-shuttered house, and someone was standing at the upper window, in the place where the lantern should have been.`,
      },
      {
        title: 'The Nephew',
        content: `The man in the window was called Clive Van Dort, and he came down to open the door before she had even knocked.

He was perhaps fifty, tanned in the way of people who played golf, with a polo shirt that did indeed have a little horse on it and a voice that was used to being listened to. He said he was Reginald's nephew, his late brother's son, from Colombo 7. He said he was terribly worried.

"Uncle's memory has been going for a while," he told her, on the verandah, with a sad shake of the head. "He wanders. He forgets things. I've been trying to persuade him to come and live with us, but he's stubborn. When a neighbour rang to say the light hadn't come on, I drove straight down."

Fathima had spoken to Mr. Van Dort almost every day for three years. He did the crossword in ink. He could recite the names of every Dutch governor of Galle in order. He had corrected her pronunciation of "Zwart Bastion" only last week.

"Which neighbour rang you?" she asked.

Clive smiled a fraction too late. "I don't remember the name. An old lady."

"And you got here from Colombo in an hour and a half? The light goes on at seven. It's only half past eight now."

"The expressway is very good," said Clive, and his smile got wider and his eyes did not. "You seem to know my uncle well, Miss...?"

"Fathima. I'm a guide. I bring my groups to see the lantern."

"Ah. The lantern." He leaned against the pillar. "You didn't happen to see it when you came in last night? I looked all over the house. I'm afraid Uncle might have sold it, or given it away to someone. He wasn't always sensible about money."

"I didn't see it," said Fathima, which was true.

"If you do," said Clive, "please call me." He gave her a card: Clive Van Dort, Director, Southern Coast Properties. "It's not the kind of thing that should be lying around. Between us, that lantern is probably worth more than this whole house."

He went back inside and closed the door. Fathima stood in the street, holding the card.

A man who thought his uncle had forgotten how to count his money. A man who had asked about the lantern on the beach before anyone knew it was missing.

If the lantern was worth more than the house, she needed to know why. And there was one person in the Fort who could tell her.`,
      },
      {
        title: 'The Dealer on Pedlar Street',
        content: `Mr. Hameed Jabir's shop on Pedlar Street was so full of old things that the customers had to walk through it sideways: brass oil lamps, Dutch chairs with cane seats, carved ebony elephants, colonial postcards, a ship's compass the size of a cartwheel. Mr. Jabir himself sat at the back behind a glass counter full of moonstones, drinking ginger tea and reading a Tamil newspaper.

He had known Fathima since she was six. Her father had repaired the shop's roof.

"The Van Dort lantern," he said, when she asked, and took off his glasses. "Duwa, why are you asking me about the Van Dort lantern?"

She told him. He listened, and he did not interrupt, and when she had finished he sighed and went to the back of the shop. He came back with a thick folder of photographs and opened it on the counter.

"One month ago," he said, "a gentleman came to me from Colombo. He had photographs of that lantern, taken through a window, very close. He wanted to know what it was worth."

"Clive."

"He didn't give a name. Horse on his shirt." Mr. Jabir turned a page and tapped a photograph. "I told him I would have to examine the piece to be sure. But from these, I believe it is a VOC ship's lantern from the seventeenth century. The Dutch East India Company. There is a mark, here, on the base. The ship's mark."

"Which ship?"

"You know that a Dutch ship sank in Galle harbour in 1659? The Avondster? The archaeologists found her a few years ago, under the sand. Almost nothing came up complete. If this lantern came from the Avondster, and it has a history to prove it..." He spread his hands. "Museums in Amsterdam would fight over it. Many, many millions."

Fathima felt cold. "What did you tell Clive?"

"What I told you. And he asked me a strange question. He asked if such lanterns had hiding places."

"Do they?"

Mr. Jabir turned to a photograph of the lantern's base, greatly enlarged. Around the bottom ran a brass band decorated with little fishes, and in one place, if you looked carefully, there was a thin line where two pieces of metal met.

"Some captains," he said, "kept their most important papers in the base of their own lantern. Sealed. Because if the ship sank, the lantern would float."

He looked at her over the top of his glasses.

"Whatever Reginald is carrying, duwa, I do not think it is only a lamp."`,
      },
      {
        title: 'The Church Register',
        content: `The Groote Kerk, the old Dutch Reformed Church at the top of Church Street, was cool and white inside and smelled of damp stone. The floor was paved with tombstones of Dutch merchants and their wives, and the tourists walked carefully around the skulls carved on them.

Mrs. Ephraums, who had kept the church keys since 1987, knew Mr. Van Dort well. He came to the Sunday service every week and sat in the same pew, third from the back on the left, and he always stayed behind afterwards to look at the baptismal register.

"Always the same page," she said, taking the heavy book down from its shelf in the vestry. "Always this one."

The page was dated 1948. Among the baptisms, in faded brown ink: Marguerite Anne Van Dort, daughter of Hendrik and Cecilia Van Dort, of Leyn Baan Street.

"His sister," said Mrs. Ephraums. "Younger by eight years. A great beauty. She ran away in 1979. With a fisherman from Unawatuna, a Sinhalese boy, a Buddhist. Her father was a very hard man. He said she was no longer his daughter, and he forbade anyone in the family to speak her name."

"And Reginald?"

"Reginald was the good son. He did as his father said. But after the old man died..." Mrs. Ephraums closed the book gently. "I think that is when the lantern started. Forty years ago. I always believed it was for her. So she would know the house still had a light in it."

"Did she ever come back?"

"Not that I know of. But..." The old lady hesitated, then went to a drawer in the vestry desk and took out a small bundle of envelopes. "The post office sends us letters for the Van Dorts sometimes, because of the old family pew. Usually they are for the dead. Reginald collects them every Sunday. This one came on Monday. He has not been in to fetch it yet."

It was a cheap white envelope, addressed in a shaky hand to R. Van Dort, c/o Dutch Church, Galle Fort. The postmark said Unawatuna.

Fathima looked at it for a long time. It was not her letter. It was not her business.

"He asked the sea to take him to Unawatuna," she said, half to herself.

Mrs. Ephraums looked at the envelope, and then at Fathima, and then she made a decision. She took a paper knife from the drawer and slit it open.

"God will forgive us," she said. "Read it, child. Quickly."`,
      },
      {
        title: 'Unawatuna',
        content: `The letter had been short: Reggie, I am ill, and I want to see the light once more before I go. Bring it to me. It was signed M.

The three-wheeler driver knew the address at once. It was a small house at the end of a sandy lane behind the fishing beach at Unawatuna, with a blue door and bougainvillea over the roof, and a dozen grandchildren's slippers on the step.

The woman who opened the door was very thin and used a walking frame, and she had the same long Van Dort nose as the photograph in the church. Her Sinhala was the easy Sinhala of someone who had spoken it for forty years.

"You are the girl from the tours," she said, before Fathima could speak. "Reggie told me about you. The one who makes up stories about his lantern."

"Is he here?"

"He was." Marguerite sat down heavily on a wooden chair on the verandah. "He came on Wednesday. He walked along the beach road because the sea was too rough for a boat, the old fool, eighty-one years old, without his stick. He sat where you are sitting and held my hand for the first time in forty-six years. And he brought me this."

The lantern stood on a small table in the front room, and even in daylight it seemed to glow. Beside it lay a folded document, yellow and brittle, with a red wax seal that had been broken.

"It was inside the base," said Marguerite. "Our grandfather's will. Father never told us it existed. It leaves the house on Leyn Baan Street to both of the grandchildren, equally. Reggie and me. Father hid it because he did not want me to have anything. Reggie only found it last month, when he was cleaning the lantern."

"Last month," said Fathima slowly. "When Clive was photographing it."

Marguerite's face hardened. "Reggie said Clive has been pressing him to sign the house over to a company. For a hotel. Reggie refused. Then Clive started telling people that Reggie was losing his mind."

"Where is Mr. Van Dort now?"

"He left last night. He said he would take the early bus back to the Fort and settle things with Clive before he did anything foolish. He left the lantern and the will here, with me, to keep them safe."

Fathima took out her phone. The Fort was twenty minutes away. He should have reached home by eight this morning.

But she had been at the house at eight, and it had been empty. Only the grey car had been outside.

"Aunty," she said, "does Clive know about this house?"

Marguerite's hand tightened on the frame.

"Reggie didn't tell him," she said. "But when Reggie left, a grey car was parked at the end of the lane."`,
      },
      {
        title: 'The Ramparts at Night',
        content: `Sergeant Wijeratne took her seriously this time. It might have been the will with its broken wax seal, which Fathima laid on his desk like a playing card. It might have been Marguerite, who had insisted on coming in the three-wheeler, walking frame and all, and who told the sergeant in a voice like a headmistress exactly what she thought of the Sri Lanka Police.

"Southern Coast Properties," said the sergeant, typing. "Registered office in Colombo. One other property in the south. A villa in Hikkaduwa, bought last year."

"A villa," said Fathima. "Empty?"

"Listed as a private nursing home. Licence applied for. Not granted." He looked up. "Why would a property company want a nursing home without a licence?"

"Because it's a good place to keep an old man," said Marguerite, "while you tell a lawyer he's too confused to manage his affairs."

The sergeant reached for his cap.

It was dark by the time they reached Hikkaduwa, and the villa was down a lane behind the railway line, with high walls and a gate with broken glass along the top. There were lights on inside. The grey car was in the drive.

Sunil had come too. He said the sea had told him to, which nobody argued with. He was the one who spotted the open window at the back, and the one who climbed through it, while the sergeant was still on the phone to Galle asking for another jeep.

Fathima followed him. She was not supposed to. Afterwards, nobody could agree on whose idea it had been.

They found Mr. Van Dort in a back bedroom with the fan off, sitting very straight on the edge of a bed, in yesterday's clothes. Clive was standing over him with a sheaf of papers and a pen, and a second man, thin and nervous in a white coat, was standing by the door.

"Sign it, Uncle," Clive was saying, quite gently. "Then you can go home. It's only to protect you."

"I have read it," said Mr. Van Dort. "Twice. It gives you the power to sell my house. I will not sign it, Clive. Not tonight, and not on any other night."

Then he looked past his nephew and saw Fathima in the doorway, and his whole face lit up, exactly as the window did at seven o'clock every evening.

Clive turned. For a second he looked almost relieved. Then his eyes went to the empty corridor behind her and his face changed.

"You stupid girl," he said softly. "You have no idea what is in that lantern."

"Actually," said Fathima, "I do."`,
      },
      {
        title: 'Light in the Window',
        content: `The second jeep arrived four minutes later, which Sergeant Wijeratne would afterwards describe in his report as "timely police action". By then Sunil had sat down in the corridor in front of the man in the white coat, who turned out to be a pharmacy assistant from Ambalangoda, and Clive had sat down on the bed beside his uncle and put his head in his hands.

He owed money. Of course he owed money. He had borrowed heavily to buy the villa and three other plots along the coast, betting on a hotel boom, and the banks were calling in the loans. The house on Leyn Baan Street, in the middle of the Fort, was worth more than all the rest put together. And the lantern, once he had read up on the Avondster, had seemed like a miracle.

"I would have looked after him," he kept saying. "He would have been comfortable."

Mr. Van Dort, with great dignity, did not reply.

It took a month for the lawyers to finish. The will in the lantern was genuine. The house belonged jointly to Reginald and Marguerite, and nobody could sell it without both of them agreeing, which they never would. The lantern itself was examined by a very excited woman from the Maritime Archaeology Unit, who confirmed that it had come up from the Avondster in the 1700s, long before the wreck was rediscovered. She asked if they would consider lending it to the museum in the Fort.

"Lend," said Mr. Van Dort. "Not sell. And not yet."

Clive was not charged with kidnapping, because his uncle refused to make a statement against him. But the court appointed a guardian to his business, and the villa in Hikkaduwa was sold, and he went back to Colombo and did not come south again.

In June, Marguerite moved back into the house on Leyn Baan Street. The grandchildren came at weekends and filled the ground floor with slippers and noise. Sunil mended the shutters. Mrs. Ephraums brought a cake.

And on the first evening, Fathima brought her tour group down Leyn Baan Street just after seven, and stopped them outside the narrow house with the green shutters, and pointed up.

"Watch," she said.

At seven exactly, the lantern bloomed into light in the upper window, and this time there were two faces behind it: an old man with his cardigan buttoned wrong and an old woman with the same long nose, side by side, waving.

"Why does he light it?" asked a girl from Melbourne.

For the first time in three years, Fathima told the truth. It took a long time, and nobody left early.

Afterwards, walking home along Church Street, she noticed a window she had never looked at before, high up in a shuttered house that had been empty for years. For a moment, just a moment, she thought she saw a candle in it.

Then it went out.`,
      },
    ],
  },

  // ---------------------------------------------------------------------------
  // Letters from Nallur (kind 2, members only, ongoing)
  // ---------------------------------------------------------------------------
  {
    key: 'letters-from-nallur',
    title: 'Letters from Nallur',
    description:
      'A Jaffna schoolteacher finds notes pencilled in the margins of a library book, and answers them. A love story told in letters between two people who have never met.',
    language: 'english',
    kind: 2,
    category: 'romance',
    ongoing: true,
    membersOnly: true,
    authorKey: 'dilini',
    reads: 3100,
    rating: 4.5,
    episodes: [
      {
        title: 'Margins',
        content: `Jaffna Public Library, returns shelf. A note found folded inside a copy of "The Village in the Jungle" by Leonard Woolf.

To whoever borrowed this book before me,

You have been writing in the margins. In pencil, I grant you, and in very neat handwriting, but still. On page 43 you have underlined the sentence about the jungle being evil and written "No. Only indifferent." On page 112 you have drawn a small, rather good elephant. On page 190, where Silindu is taken away, you have written "I cried here, on the bus to Point Pedro, and the conductor gave me a toffee."

I am a schoolteacher. I spend my days telling forty fourteen-year-olds not to write in books. I should be annoyed with you.

But I also cried on page 190, and nobody gave me a toffee. So I am writing this note instead, and leaving it inside the back cover, where the librarian will not find it, and I will see whether you borrow this book again. People who write in margins usually do.

The jungle is not indifferent, by the way. Read page 201 again.

K.

---

To K.,

I borrowed it again. Of course I did. You were right about page 201; I had rushed through it. I read it four times in the reading room this afternoon, and the security guard started to look at me with concern.

Let me explain myself. I am not a vandal. I am an engineer from Kurunegala, working on the water supply project in the Jaffna peninsula. I have been here six months. I live in a rented room near Nallur temple, where the bells wake me at half past four, and I know almost nobody. My Tamil is bad. The children in the lane laugh at it. The library is the only place where I feel as if I know what is going on.

So I write in the margins. It is like talking to someone. I did not expect anyone to talk back.

The elephant on page 112 is a self-portrait. I am large and slow and I like water.

I am leaving this note in the back cover, as you did. I will return the book tomorrow. If you want to write again, I will borrow it on Thursday.

D.

P.S. Which bus do you take? I want to find that conductor.

---

To D.,

The conductor is called Rasan, he works the 750 route, and he gives toffees only to people who look genuinely unhappy. Do not try to fake it. He can tell.

Your Tamil cannot be as bad as you say, because you have just spelled "Nallur" correctly, which half the tourists cannot do.

You want to know something about me, I suppose, since I now know you are an engineer, large and slow and fond of water. Here it is. I teach English and literature at a girls' school on the Point Pedro Road. I live with my mother and my grandmother and a cat who belongs to none of us. I was born in 1995, so I remember the last years of the war, but only as a child remembers things: as sounds, and as the times my mother held me too tightly.

I am not going to tell you my name. Not yet. I like this too much, and names make things ordinary.

Next book: "Funny Boy". Shyam Selvadurai. Reading room shelf F. You will need a pencil.

K.`,
      },
      {
        title: 'The Festival',
        content: `To K.,

I have finished "Funny Boy" and I have been walking around for two days feeling as if someone has taken the skin off my chest. I have written nothing in the margins this time, because there was nothing to add. I only underlined the last page.

I need to tell you something, and I am nervous, so I will say it plainly. I am Sinhala. I think you have guessed. Kurunegala is not a subtle place to be from. But I have been reading this book about 1983, and about what was done to people like your family by people who looked like mine, and I do not know how to write to you without saying it. I am sorry. I know that is not enough. I was born in 1993. It is still not enough.

If you do not want to write again, I will understand. I will put the book back on shelf F and stop borrowing things in your handwriting.

D.

---

To D.,

I knew you were Sinhala from your first note. You wrote "the bus to Point Pedro". We say "Paruththiththurai" when we are being lazy, and nobody from here writes "the" bus, as if there were only one.

Listen to me. I did not give you that book to punish you. I gave it to you because it is beautiful and true, and because you write in margins, and people who write in margins are trying to have a conversation with the world. I wanted to know what you would say.

You said you were sorry. That is a better start than most people manage. Now come to the festival.

The Nallur festival starts next week. Twenty-five days. You live beside the temple, so you cannot avoid it anyway; you may as well see it properly. Go on the day of the chariot. Take off your shirt at the gate, the men do, and wear a white veshti if you can find one. Do not eat anything before. Stand near the east gopuram at six in the morning and watch the chariot come round.

I will be there. I will not tell you what I look like.

If you want to find me, you will have to work it out.

K.

---

To K.,

I went.

I bought a veshti from a shop on Point Pedro Road and the shopkeeper laughed so hard he had to sit down, and then he tied it for me properly, and then his wife gave me tea. I stood near the east gopuram from half past five. I have never seen so many people. The chariot was taller than a house, and hundreds of men were pulling it on thick ropes, and the drums went right into my ribs, and people around me were weeping and singing, and an old woman held my arm as the chariot passed, as if I was her son.

I looked at every woman near the gate. I looked for someone who might be an English teacher, with neat pencil handwriting and a cat that belongs to nobody. I did not find you.

Then, at the end, when the crowd was thinning, a girl in a green sari walked past me and pressed something into my hand without looking at me, and disappeared into the crowd before I could turn.

It was a toffee.

I have not eaten it. It is on my desk. I look at it every day.

Tell me that was you.

D.`,
      },
      {
        title: 'Transfer Orders',
        content: `To D.,

Of course it was me.

I saw you the moment I arrived. I had no idea what you looked like, but I knew immediately. You were the only man at the east gopuram who was looking at the crowd instead of the chariot, you were at least a head taller than everyone else, and your veshti was tied so perfectly that somebody's wife must have done it for you. You looked very earnest and very lost and very happy. You looked, in fact, exactly like a large slow elephant who likes water.

I watched you for an hour. When the old woman took your arm, you did not pull away. You let her hold on until the chariot had passed, and then you helped her down the step. That was when I decided.

I am sorry I ran away. I was frightened. Not of you. Of how much I wanted to stay.

My name is Kavitha.

There. Now it is ordinary, and I find I do not mind at all.

K.

---

To Kavitha,

Kavitha. I have written it on a piece of paper about thirty times, like a schoolboy. I am not going to tell you how many times I have said it aloud in my room, because the bells at half past four would be embarrassed for me.

My name is Dimuthu. Dimuthu Herath. I am twenty-nine. I have a mother in Kurunegala who sends me dried fish by post and a younger sister who is studying medicine in Peradeniya and thinks I am an idiot. I snore. I am good at fixing pumps and bad at almost everything else.

I want to meet you properly. Not in a crowd. Not with toffees. At the library, on Saturday, at ten, at the table beside shelf F. I will bring "The Village in the Jungle", and you can tell me to my face that I am wrong about page 43.

Please come.

Dimuthu

---

To Dimuthu,

I will come.

But I have to tell you something first, because you deserve to know before you sit down across from me, and because my grandmother says that a thing not said at the beginning becomes a wall by the end.

My family has already chosen someone for me. His name is Ganesh, he is a pharmacist in Toronto, and our horoscopes matched so well that the astrologer charged my mother double. His family arrives in Jaffna in December for the engagement. I never agreed to it. But I never said no, either, because until two months ago there was nothing to say no for.

I am telling you this so you can decide whether you still want to come on Saturday.

Kavitha

---

To Kavitha,

I will be at the table by shelf F at ten on Saturday. Nothing you have said changes that.

But I also have something to tell you, and I only found out this morning. The project office called me in. The peninsula works are finishing early. I have transfer orders.

I am to report to Matara on the first of December.

Dimuthu`,
      },
    ],
  },

  // ---------------------------------------------------------------------------
  // The Ninth Mile Estate (kind 3, members only, ongoing)
  // ---------------------------------------------------------------------------
  {
    key: 'ninth-mile-estate',
    title: 'The Ninth Mile Estate',
    description:
      'A young assistant superintendent takes up his first post on a remote tea estate above Haputale, where the mist comes in at four and the pluckers warn him never to open the back door after the factory siren.',
    language: 'english',
    kind: 3,
    category: 'horror',
    ongoing: true,
    membersOnly: true,
    authorKey: 'ashan',
    reads: 1750,
    rating: 3.5,
    episodes: [
      {
        title: 'The Bungalow',
        content: `The last nine miles to the estate were the worst road Shehan Rodrigo had ever seen, and he had grown up in Ratnapura. The jeep ground up through a tunnel of cloud, switchback after switchback, tea bushes on one side and a drop into white nothing on the other. Twice the driver, a silent man called Murugan, stopped to move fallen branches. Once he stopped for no reason Shehan could see, sat with the engine running for a full minute, and then drove on.

"What was that?" Shehan asked.

"Someone crossing," said Murugan.

Shehan had seen no one.

The assistant superintendent's bungalow sat on a shoulder of the hill above the factory, a long colonial house with a red tin roof, a fireplace in every room and a garden of roses gone wild. It had been empty for eight months, since the last assistant superintendent left in a hurry in the middle of his contract. The estate office had been vague about why. Family reasons, they said.

The appu who kept the house was called Kanagaratnam, and he was perhaps seventy, very thin and very polite. He had lit the fires. He had made a mutton curry and a pol sambol so good that Shehan ate three helpings and felt, for the first time since he had signed the contract, that this might be all right.

Then, while he was clearing the plates, Kanagaratnam said, "Sir, the factory siren goes at six."

"I know. I start at six tomorrow."

"No, sir. At six in the evening also. For the end of the plucking." The old man set the plates down carefully. "After the evening siren, sir, please do not open the back door. Front door, no problem. Back door, no."

Shehan laughed. Then he saw that Kanagaratnam was not laughing.

"Why not?"

"The old Periya Dorai, the British superintendent, he made that rule. Nineteen forty-six. Every appu since, we tell the new sir. The last sir..." Kanagaratnam looked at the floor. "The last sir did not listen."

"What happened to him?"

"He went home, sir. Family reasons." The old man picked up the plates again. "Good night, sir. I sleep in the line rooms, not here. I will come at five with your tea."

After he had gone, the bungalow was very quiet. The mist pressed against the windows like grey wool. The fire ticked. Somewhere in the rafters a gecko called, tchk tchk tchk, the sound that Shehan's grandmother said meant a thing was true.

At a quarter to ten he heard something at the back of the house, past the kitchen. Not a knock. A soft, regular sound, like someone snapping leaves between finger and thumb. Two leaves and a bud. Two leaves and a bud.

It went on for a long time. It came from just outside the back door.`,
      },
      {
        title: 'The Extra Basket',
        content: `In daylight the whole thing seemed ridiculous. At five Kanagaratnam came with tea and a plate of hoppers, the sun broke through the cloud by seven, and from the factory veranda Shehan could see the whole estate laid out below him, row upon row of glossy green bushes running down into the valley, with the pluckers moving among them in bright saris like a scattering of flowers.

The estate was called Ninth Mile because it was nine miles from the Haputale road, and it was run, in practice, by the head kangani, a heavy, clever woman named Parvathi, who had been working on the estate since she was fifteen and had outlasted six superintendents. She took Shehan round the divisions on foot, pointing with her umbrella, and by lunchtime his legs were shaking and he had learned more about tea than in two years of his plantation management diploma.

At four, the mist came in again, as regular as a bus. At half past five the pluckers brought their baskets to the weighing shed, and Shehan stood beside the clerk and watched the leaf being weighed and entered in the register, each woman's name and number and kilos.

There were a hundred and twelve pluckers on the roll that day. When the clerk totalled the column, there were a hundred and thirteen baskets.

The last basket sat a little apart from the others, at the end of the line, in the shadow of the shed. It was an old kind of basket, Shehan noticed, woven cane instead of the plastic sacks the women used now, and the leaf in it was perfect: two leaves and a bud, every single one, not a coarse leaf or a broken stalk among them. Better leaf than anything else in the shed.

"Whose is that?" he asked.

The weighing shed went quiet. The clerk looked at Parvathi. Parvathi looked at the basket.

"No one's, sir," she said. "Sometimes it comes."

"Sometimes?"

"Once a month. Twice. Since before my time." She said something sharp in Tamil to the clerk, who tipped the leaf from the cane basket onto the withering floor with the rest, without weighing it, and did not write anything in the register. "We don't count it, sir. We don't ask. We put the basket back where it was."

"Where was it?"

Parvathi hesitated. Then she pointed with her umbrella, up the hill, through the mist, to where the red roof of the bungalow showed faintly above the factory.

"Outside your back door, sir," she said. "It is always put back outside your back door."

The evening siren went, long and low, and every woman in the shed turned and looked up the hill at once.`,
      },
      {
        title: 'The Register of 1946',
        content: `Shehan did not sleep that night. He sat in the drawing room with every light on and a cricket bat across his knees, feeling foolish and cold, and at a quarter to ten the sound came again. Snap. Snap. Two leaves and a bud. It went on until after midnight, and then, very clearly, something set a basket down on the back step.

In the morning the cane basket was there, empty, exactly where Parvathi had said it would be.

He did not tell Kanagaratnam. He went down to the estate office instead, where the old records were kept in a storeroom behind the manager's desk, in iron cupboards that smelled of mildew and kerosene. The clerk looked unhappy but gave him the key.

The plucking registers went back to 1921, long canvas-bound books filled with names and numbers in faded ink. Shehan found 1946 on the bottom shelf. He carried it to the window and began to turn the pages.

It took him an hour. The names were the same as the names on today's roll, many of them: the same families, grandmothers and great-grandmothers of the women he had watched yesterday. In the week of the nineteenth of March 1946 there was a new name on the list, a girl of twelve, entered as plucker number 88. Valli, daughter of Muniyandi. She plucked eleven kilos on her first day, then fourteen, then sixteen. Good leaf, someone had written beside her name, in English, in a different hand. Very good leaf.

On the twenty-sixth of March there was no entry for Valli. On the twenty-seventh there was a single line across her row, in red ink, and the initials of the superintendent, E.J.H.

Below it, squeezed into the margin, someone had written in Tamil. Shehan's Tamil was poor, but he could read it slowly, one letter at a time.

She went to the bungalow with the basket and did not come back.

He sat for a long time with the book open on his knees. Then he heard the storeroom door behind him, and turned, and Parvathi was standing there with her umbrella.

"You found her," she said. It was not a question.

"What happened to her?"

"My grandmother said the Periya Dorai called her to the bungalow to bring him the best leaf of the day. For his own tea. That was the custom. She went to the back door, at six, after the siren." Parvathi's voice was very flat. "The front door is for dorais. The back door is for us."

"And?"

"And nobody saw her again. The Dorai said she ran away to India. The family said he was lying. There was a police inquiry, one day only. Then the Dorai went back to England." Parvathi looked at the register, at the line of red ink. "She has been waiting outside that door for seventy-eight years, sir. Bringing the best leaf. Waiting for someone to let her in."

"And the last assistant superintendent? What happened when he opened it?"

Parvathi was quiet for a moment.

"Ask Kanagaratnam," she said at last, "why the last sir left his car, his clothes and his passport in the bungalow when he went home."`,
      },
    ],
  },

  // ---------------------------------------------------------------------------
  // Seven Days to the Poruwa (humour, ongoing)
  // ---------------------------------------------------------------------------
  {
    key: 'seven-days-to-the-poruwa',
    title: 'Seven Days to the Poruwa',
    description:
      'When the wedding planner elopes a week before his cousin\'s big Colombo wedding, hapless Sanjaya Mendis is put in charge of everything: the astrologer, the caterer, two hundred relatives and a very angry aunt.',
    language: 'english',
    kind: 0,
    category: 'humour',
    ongoing: true,
    membersOnly: false,
    authorKey: 'dilini',
    reads: 640,
    rating: 3,
    episodes: [
      {
        title: 'Day Seven: The Planner Has Left the Building',
        content: `The news reached the Mendis family WhatsApp group at 6.42 on a Saturday morning, in the form of a voice note from Aunty Priyanka that was three minutes and forty seconds long and consisted mostly of screaming.

Sanjaya Mendis listened to it twice in bed, trying to pick out individual words. "Planner." "Gone." "Australia." "With the florist." "Deposit." And, more than once, his own name.

By eight he was sitting at Aunty Priyanka's dining table in Nugegoda with a cup of tea he had not asked for and a stack of files he definitely had not asked for, while around him the family held what his mother, on the phone from Kandy, called a crisis meeting and what his uncle called "a bloody circus".

The facts, once they had been separated from the screaming, were these. His cousin Tharushi was to marry Kasun Wijesuriya in exactly seven days at a hotel on Galle Road, at the auspicious time of 10.47 a.m., in front of two hundred and sixty guests. The wedding planner, Mr. Roshan "Call Me Ro" Fonseka, had been paid in full. Mr. Fonseka and the florist, a Mrs. Damayanthi who was rumoured to have a husband in Moratuwa, had boarded a flight to Melbourne on Friday night. They had taken with them the contact list, the seating plan, the deposit for the band and, for some reason, the sample cake.

"So we call the hotel and the caterer ourselves," said Sanjaya. "We have the files. How hard can it be?"

The whole table went silent and looked at him. Aunty Priyanka began to smile. It was the smile of a woman who had found someone to blame for the next seven days.

"Sanju," she said warmly, "you are so good with computers."

"I'm a bank teller, Aunty."

"And so organised. And you have leave, no? Your mother said you have leave."

"I was going to Ella. With friends. I booked the train..."

"Ella is always there," said Aunty Priyanka. "Ella has been there for millions of years. Tharushi is getting married only once." She paused. "God willing."

By nine o'clock Sanjaya had been appointed, by a show of hands from which he was not allowed to abstain, the official wedding coordinator. He had been given a folder labelled RO, a laminated list of two hundred and sixty names, and the phone number of the family astrologer, Mr. Somapala, who needed to be consulted, his aunt said, about "a small change".

"What small change?"

"The poruwa time," said Aunty Priyanka. "He called this morning. He says he made a calculation error. Small only."

Sanjaya rang him from the verandah. Mr. Somapala was friendly and apologetic and very, very sure of himself.

"The auspicious time is not 10.47 a.m., putha," he said. "It is 6.13 a.m."

Sanjaya looked at the laminated list of two hundred and sixty names.

"In the morning?"

"In the morning. Also, the bride must face east. Not north. North is very bad this year." Mr. Somapala lowered his voice. "And please, whatever happens, no one wearing green."

Sanjaya looked through the window at the dining table, where Aunty Priyanka was unfolding her wedding sari from its tissue paper.

It was a very beautiful sari. It was emerald green.`,
      },
      {
        title: 'Day Six: The Caterer Who Would Not Answer',
        content: `The hotel, when Sanjaya finally got through to their events office, was sympathetic but firm. Their ballroom was booked from 7 a.m. for a corporate breakfast. If the family wanted a 6.13 poruwa, they would need to be completely finished, fed and gone by 6.55.

"Forty-two minutes," said Sanjaya, writing it on his hand. "For two hundred and sixty people."

"We can open the doors at five," said the events manager, a cheerful woman called Nishanthi. "Many families do early ceremonies now. The astrologers are all very busy with the dawn slots."

"Can the kitchen do breakfast at five?"

"That is your caterer, sir. According to our file, Mr. Fonseka arranged an outside caterer. Wasantha Caterers, Maharagama. You will need to speak to them."

Wasantha Caterers did not answer their phone. They did not answer it at nine, at ten, at eleven, or at any of the fourteen other times Sanjaya tried between lunch and tea. Their Facebook page had last been updated in 2021, with a photograph of a large pot of chicken curry and the caption "COMING SOON!!!"

"I think we should go there," said Sanjaya's younger brother Pasan, who had arrived at noon, ostensibly to help, and had so far eaten four patties and answered none of the phones.

So they went to Maharagama, on Pasan's scooter, with the folder labelled RO tucked inside Sanjaya's shirt because it would not fit anywhere else.

Wasantha Caterers turned out to be a house down a narrow lane behind a furniture shop, with an enormous kitchen built on the back where the garden should have been. A radio was playing. Eight large aluminium pots were steaming on gas burners. And in the middle of it all, stirring a pot of dhal with a paddle the size of a cricket bat, was Mr. Wasantha himself, a short, round man in a vest.

"Mendis wedding!" he said happily, when Sanjaya explained. "Yes, yes. Ro booked. Saturday lunch, two hundred and sixty. Yellow rice, chicken, fish ambul thiyal, cashew curry, brinjal moju, dhal, papadam, watalappan. All fine."

"It's not lunch any more," said Sanjaya. "It's breakfast. At five in the morning."

Mr. Wasantha stopped stirring. The radio played on.

"Breakfast," he said.

"The astrologer changed the time."

"Which astrologer?"

"Somapala."

Mr. Wasantha made a sound that Sanjaya would later try to describe to his friends and fail. It was the sound of a man who had encountered Mr. Somapala before.

"Milk rice," he said at last. "Kiribath. Lunu miris. Kavum, kokis, bananas. Tea. For two hundred and sixty, at five in the morning, I need to start cooking at one." He looked at Sanjaya. "One a.m., putha. And I need extra hands."

Sanjaya felt the thing that had been happening to him all week: a slow sinking, like wading out into the sea at Mount Lavinia and finding that the sand had stopped.

"How many extra hands?"

Mr. Wasantha looked at him, and then at Pasan, who was eating a piece of fried fish from a tray by the door, and then back at Sanjaya.

"Two," he said. "Starting tonight. For practice."`,
      },
      {
        title: 'Day Five: The Relatives from Melbourne',
        content: `Sanjaya got home at four in the morning smelling of coconut milk, with a burn on his left thumb and a new and profound respect for anyone who had ever made kiribath for more than six people. Pasan had fallen asleep on a sack of rice at half past two. Mr. Wasantha had covered him with a tablecloth and declared him useless, but in a kind voice.

He slept for three hours. At seven-fifteen the family WhatsApp group exploded again.

This time it was Uncle Sunil, who announced, with a photograph of a departures board and fourteen celebration emojis, that the Melbourne branch of the family had changed their flights and would be arriving that very night. All nine of them. They would need to be picked up from the airport at 11.40 p.m. They would, of course, be staying with Aunty Priyanka.

Aunty Priyanka's house had three bedrooms, and two of them were currently full of wedding sarees, gift boxes and four hundred small bags of wedding cake that somebody needed to tie ribbons on.

"Sanju," said Aunty Priyanka on the phone, in the warm voice.

"I'm not driving to Katunayake, Aunty. I've been up all night making milk rice."

"Not drive, no. Only go with the van. The van driver doesn't speak English, and Uncle Sunil's wife is Australian. Very nice lady. Cheryl. She is learning Sinhala from an app."

Cheryl turned out to be a large, jolly woman in a sun hat, who came through the arrivals gate at midnight, threw her arms around Sanjaya, who she assumed was someone else, and told him in careful, app-learned Sinhala that she was very pleased to eat him. The van driver laughed so hard he had to stop the van twice on the expressway.

Behind Cheryl came Uncle Sunil, their three teenage children, Uncle Sunil's mother-in-law, who was ninety and asleep, two cousins Sanjaya had never heard of, and a large, silent man in a grey suit who was introduced only as "Kevin, from the business".

Kevin did not say anything all the way to Nugegoda. He sat at the back of the van holding a briefcase on his knees and looking out of the window at the dark.

It was only when they were unloading the bags that Sanjaya saw the label on the briefcase. It was a baggage tag from Melbourne airport, dated Friday night, with the name of the passenger written on it in capital letters.

R. FONSECA.

He looked at Kevin. Kevin looked at him. Then Kevin put one finger to his lips, very slowly, and carried the briefcase into the house.`,
      },
      {
        title: 'Day Four: The Man with the Briefcase',
        content: `Sanjaya spent the rest of the night on the sofa, because his bedroom had been given to Uncle Sunil's mother-in-law, and he did not sleep at all. He lay listening to the ceiling fan and the snoring of nine relatives and thinking about the briefcase.

At six he gave up, made himself a cup of tea and took it out to the back garden, and found Kevin already there, sitting on an upturned bucket by the well, drinking instant coffee out of Aunty Priyanka's best cup.

"I suppose you want to know," said Kevin. He had a quiet Australian voice.

"I really do."

Kevin sighed. "I'm a private investigator. Sunil hired me. Not for this, originally. For a business matter. But on Friday night I was on the same flight as your Mr. Fonseka and his lady friend, and I recognised him from the wedding photos Sunil had been sending round. So I kept an eye on him."

"And the briefcase?"

"He left it behind at Melbourne airport, at the baggage carousel. Got into a very loud argument with the florist, stormed off, and forgot it. I picked it up. I thought somebody should look after it."

"You stole it?"

"I'm returning it," said Kevin calmly, "to its rightful owners. Who are, I think, your family." He opened the briefcase on his knees.

Inside were the things Sanjaya had spent three days desperately trying to recreate: the full seating plan for two hundred and sixty guests, colour-coded by family feud; the contract and deposit receipt for the band; the contact numbers for the drummers, the dancers, the photographer and the man with the decorated car. And, in a plastic box, slightly squashed, the sample cake.

"Oh thank God," said Sanjaya. "Oh thank God. Kevin, I could kiss you."

"Please don't," said Kevin. "There's something else."

Beneath the papers was a long brown envelope. It was addressed, in Ro Fonseka's loopy handwriting, to Mrs. Priyanka Mendis, and it was marked PRIVATE, DO NOT OPEN UNTIL AFTER THE WEDDING.

"He meant to post it," said Kevin. "From Australia, I imagine. I haven't opened it. That's not my business."

Sanjaya turned it over in his hands. It was heavy. It felt like a lot of paper.

"What do you think it is?"

"In my experience," said Kevin, "when a wedding planner runs away to another country a week before the wedding, and writes a long letter to the bride's mother that he does not want her to read until after the wedding is over..." He finished his coffee. "It's usually about the groom."

Behind them, the kitchen door banged open, and Aunty Priyanka came out in her dressing gown, with her reading glasses on her head, looking for her best cup.

Sanjaya put the envelope inside his shirt.`,
      },
    ],
  },

  // ---------------------------------------------------------------------------
  // Upcoming: The Long Walk to Kataragama (releases in 7 days)
  // ---------------------------------------------------------------------------
  {
    key: 'long-walk-to-kataragama',
    title: 'The Long Walk to Kataragama',
    description:
      'A sixteen-year-old from Jaffna and her stubborn grandfather join the old pilgrims\' foot path down the east coast and through the jungles of Kumana, forty days on foot to Kataragama.',
    language: 'english',
    kind: 0,
    category: 'adventure',
    ongoing: true,
    membersOnly: false,
    authorKey: 'ashan',
    releaseInDays: 7,
    reads: 120,
    rating: 4,
    episodes: [
      {
        title: 'Teaser: The Day We Left Selvasannithi',
        content: `My grandfather decided to walk to Kataragama on the same morning the doctor told him his heart was not good.

"Forty days," said the doctor, a young man from Colombo who had not yet learned that there is no point arguing with Jaffna grandfathers. "On foot, through the jungle, at seventy-six, with that heart? Mr. Sellathurai, it will kill you."

"Then I will die walking to Murugan," said Appappa, "instead of sitting in a chair watching teledramas. Which would you prefer, doctor?"

The doctor did not have an answer. My mother did. It was very long and very loud and went on for most of the evening, and it ended, as all of my mother's arguments with her father ended, with her throwing her hands in the air and saying that if he was going to be a fool, at least he would not be a fool alone.

That was how I, Nila Sellathurai, sixteen years old, with a phone that had eleven per cent battery and a pair of trainers that were already too small, came to be standing at the Selvasannithi temple on the bank of the Thondaimanaru lagoon at dawn in the middle of June, with a cloth bag of dried rations on my back and a vel, a small brass spear, in my hand.

The Pada Yatra, the old pilgrims' walk, begins there. It goes down the whole east coast of the island, through Mullaitivu and Trincomalee and Batticaloa and the fishing villages of Pottuvil, and then inland, through the jungles of Kumana and Yala, where there are no roads, only elephant paths and leopards and a river you wade across up to your chest. Then, on the fortieth day or so, you arrive at Kataragama, and you go to the god, and you give him whatever it was you carried all that way.

My grandfather had walked it once before, in 1981, when he was thirty-two. Then the war came and the path was closed for twenty years, and he never walked it again.

"Why now?" I asked him, while the priest broke coconuts and the other pilgrims, a hundred or so, old women mostly, a few young men, two French backpackers looking bewildered, sang and rang bells.

Appappa did not answer for a while. Then he took a folded photograph out of his shirt pocket and showed it to me. It was black and white, very old, creased across the middle. Two young men stood side by side in front of a temple gopuram, with their arms around each other's shoulders, grinning. One of them was my grandfather. The other man I did not know.

"This is Bandara," he said. "We walked together in 1981. He was from a village near Kataragama. A Sinhala boy. We were best friends for forty days, and then we said we would walk it again the next year, together."

"And?"

"And in 1983 everything burned, and I never heard from him again."

He put the photograph back in his pocket.

"Before I die," said my grandfather, "I want to find out whether he is still waiting for me at the end of the road."

The conch blew. The pilgrims lifted their bundles. And we began to walk south.`,
      },
    ],
  },
];
